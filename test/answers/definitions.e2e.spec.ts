/**
 * What an answer with no chat model says of the definitions it names, through POST /v2/query and
 * GET /v2/repositories/{id}: the language's word for each (a Rust enum is no class), a suggested
 * question that is answered by what it asks about, a long class cited as the class and not its
 * `class X:` line, a pasted trace whose frame names the best place, and sources that cite the same
 * lines as the answer's text (a long function to its true end).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture } from "../support/git-fixtures.ts";
import { indexRepository } from "../search/support.ts";
import { FILES, PROCESS_LINE_END, RESPONSE_END, RESPONSE_LINE, THROW_LINE } from "./fixture.ts";

type Source = { filepath: string; linestart: number | null; lineend: number | null };

describe("answers name definitions as they are", () => {
  let server: TestServer;
  let host: GitHostFixture;
  const ref = { remote: "github", repository: "acme/answers", branch: "main" };
  beforeAll(async () => {
    host = createGitHostFixture();
    host.createRepo(ref.repository, FILES);
    server = await startTestServer({ env: { LOUPE_GITHUB_URL: host.baseUrl } });
    await indexRepository(server, ref);
  }, 120_000);
  afterAll(async () => {
    await server?.stop({ remove: true });
    host?.cleanup();
  });

  async function ask(question: string): Promise<{ message: string; sources: Source[] }> {
    const res = await server.api("/v2/query", { method: "POST", json: { messages: [{ id: "1", role: "user", content: question }], repositories: [ref] } });
    expect(res.status).toBe(200);
    return (await res.json()) as { message: string; sources: Source[] };
  }
  const bestMatch = (message: string) => message.split("\n")[0]!;

  it("labels a definition with its language's word: enum, struct, impl, not class", async () => {
    const { message } = await ask("How does the `Value` enum work?");
    expect(bestMatch(message)).toContain("**`Value`** (enum) in `src/value/mod.rs`");
    expect(message).not.toMatch(/\*\*`Value`\*\* \(class\)/);
    const go = await ask("How does the `Engine` struct work?");
    expect(bestMatch(go.message)).toContain("**`Engine`** (struct) in `web/gin.go`");
  });

  it("leads with the definition a question names, not what its other words matched", async () => {
    const { message } = await ask("How does the `Error` struct work?");
    expect(bestMatch(message)).toMatch(/^Best match: \*\*`Error`\*\* \(struct\) in `src\/error\.rs`/);
  });

  it("suggests questions in the language's words, each answered by the definition it names", async () => {
    const res = await server.api(`/v2/repositories/${encodeURIComponent(`${ref.remote}:${ref.branch}:${ref.repository}`)}`);
    const { sampleQuestions } = (await res.json()) as { sampleQuestions: string[] };
    expect(sampleQuestions.length).toBeGreaterThan(0);
    expect(sampleQuestions).toContain("How does the `Value` enum work?");
    expect(sampleQuestions.join("\n")).not.toMatch(/`(Value|Error|Engine)` class/);
    for (const question of sampleQuestions) {
      const name = /`([^`]+)`/.exec(question)![1]!;
      const { message } = await ask(question);
      expect(bestMatch(message), question).toMatch(new RegExp(`^Best match: \\*\\*\`(?:\\w+\\.)?${name}\`\\*\\*`));
    }
  });

  it("cites a long class from its header through its members and quotes more than its first line", async () => {
    const { message, sources } = await ask("How does the `Response` class work?");
    expect(bestMatch(message)).toContain(`**\`Response\`** (class) in \`client/models.py\`, lines ${RESPONSE_LINE}–${RESPONSE_END}`);
    const quoted = /```python\n([\s\S]*?)```/.exec(message)![1]!;
    expect(quoted).toContain("class Response:");
    expect(quoted).toContain("def __init__");
    expect(sources[0]).toMatchObject({ filepath: "client/models.py", linestart: RESPONSE_LINE, lineend: RESPONSE_END });
  });

  it("takes a trace's frame naming the best place for a match, and quotes the line it points at", async () => {
    const log = Array.from({ length: 60 }, (_, i) => `2024-05-09 02:${String(i).padStart(2, "0")}:00,000 INFO  [main] ExportJob - exported batch ${i} of 400 to part-${i}.csv`);
    const report = [
      "Our nightly export crashed. Log below.",
      "",
      ...log,
      "java.lang.IllegalArgumentException: Minimum abbreviation width is 4",
      `\tat org.example.text.Strings.abbreviate(Strings.java:${THROW_LINE})`,
      "\tat com.example.export.ExportJob.summary(ExportJob.java:88)",
    ].join("\n");
    const { message } = await ask(report);
    expect(message).not.toContain("Nothing in the indexed code matches");
    expect(bestMatch(message)).toContain("**`Strings.abbreviate`** (method)");
    expect(message).toContain(`line ${THROW_LINE}, where the trace points`);
    const traced = message.slice(message.indexOf(`line ${THROW_LINE}, where the trace points`));
    expect(traced).toContain("throw new IllegalArgumentException");
  });

  it("gives each source the lines the answer cites for it: a long function whole, to its true end", async () => {
    const { message, sources } = await ask("How does the reader process a line item?");
    const cited = new RegExp(`\\*\\*\`processLineItem\`\\*\\* \\(function\\) in \`read\\.c\`, lines (\\d+)–(\\d+)`).exec(message);
    expect(cited).not.toBeNull();
    expect(Number(cited![2])).toBe(PROCESS_LINE_END);
    const source = sources.find((s) => s.filepath === "read.c")!;
    expect([source.linestart, source.lineend]).toEqual([Number(cited![1]), PROCESS_LINE_END]);
  });
});
