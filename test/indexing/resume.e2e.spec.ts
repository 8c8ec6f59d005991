import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";

let fixture: GitHostFixture;
let server: TestServer | undefined;
const FILES = 3000;

beforeAll(() => {
  fixture = createGitHostFixture();
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) {
    files[`src/mod${Math.floor(i / 100)}/file${i}.ts`] =
      `/** Module ${i}. */\nexport class Widget${i} {\n  value = ${i};\n  double(): number {\n    return this.value * 2;\n  }\n}\n\nexport function make${i}(): Widget${i} {\n  return new Widget${i}();\n}\n`;
  }
  fixture.createRepo("acme/many", files);
}, 120_000);

afterAll(async () => {
  await server?.stop({ remove: true });
  fixture?.cleanup();
});

type Status = { status: string; filesProcessed: number; numFiles: number; failureReason: string | null };

it("resumes an interrupted job after a restart without recording any file twice", async () => {
  const env = { LOUPE_GITHUB_URL: fixture.baseUrl };
  server = await startTestServer({ env });
  const res = await server.api("/v2/repositories", { method: "POST", json: { remote: "github", repository: "acme/many" } });
  expect(res.status).toBe(202);
  const path = new URL(((await res.json()) as { statusEndpoint: string }).statusEndpoint).pathname;

  let status: Status | undefined;
  for (let i = 0; i < 2000; i++) {
    status = (await (await server.api(path)).json()) as Status;
    if (status.filesProcessed > 0 || status.status === "completed") break;
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(status!.status).toBe("processing");
  expect(status!.filesProcessed).toBeLessThan(FILES);
  const dataDir = server.dataDir;
  await server.stop(); // in-process "crash": the job is interrupted between batches
  server = await startTestServer({ env, dataDir });

  const before = ((await (await server.api(path)).json()) as Status).filesProcessed;
  expect(before).toBeGreaterThan(0);
  let done: Status | undefined;
  for (let i = 0; i < 1200; i++) {
    done = (await (await server.api(path)).json()) as Status;
    if (done.status === "completed" || done.status === "failed") break;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(done).toMatchObject({ status: "completed", numFiles: FILES, filesProcessed: FILES, failureReason: null });

  const events = await server.loupe.services.eventStore.readAll({ maxCount: 100_000 });
  expect(events.filter((e) => e.type === "RepositorySubmitted")).toHaveLength(1);
  expect(events.filter((e) => e.type === "RepositoryIndexingStarted")).toHaveLength(1);
  const recorded = events
    .filter((e) => e.type === "RepositoryFilesIndexed")
    .flatMap((e) => (e.data as { files: { path: string }[] }).files.map((f) => f.path));
  expect(recorded).toHaveLength(FILES);
  expect(new Set(recorded).size).toBe(FILES);
  // The restarted service only parsed what the first one had not recorded.
  expect(server.loupe.services.indexer.stats().filesParsed + server.loupe.services.indexer.stats().filesReused).toBe(FILES - before);
}, 180_000);
