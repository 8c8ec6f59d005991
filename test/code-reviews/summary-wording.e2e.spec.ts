/**
 * The review summary's words, end to end (issue 21's QA): the real server, a real git host on disk, a
 * pull request recorded by a signed webhook, reviewed by the real worker without an index or a model.
 * A version bump is no signature change; a private function whose callers are all in its own changed
 * file is checked there; a finding reads as one complete sentence; team patterns are "checked".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { githubExample } from "../support/host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "../support/pr-webhooks.ts";

const REPO = "acme/pager";
const repoArgs = { name: REPO, remote: "github", defaultBranch: "main" };
const RULE = "Do not call `os.path.isdir` directly in the adapters; use `_is_dir()` from pkg.utils instead.";

let server: TestServer;
let host: ReturnType<typeof createHostRepo>;
let orgId: string;

beforeAll(async () => {
  host = createHostRepo(REPO);
  host.write("pkg/__init__.py", "");
  host.write("pkg/__version__.py", '__title__ = "pager"\n__version__ = "1.0.0"\n');
  host.write("pkg/pager.py", ["import os", "", "", "def _tempfilepager(generator, cmd):", "    return cmd", "", "", "def pager(generator):", '    return _tempfilepager(generator, "less")', ""].join("\n"));
  const baseSha = host.commit("initial");
  host.push("main");
  server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url } });
  orgId = server.loupe.services.keys.organisations()[0]!.orgId;
  const pattern = await server.api("/v2/custom-context", { method: "POST", json: { type: "PATTERN", body: RULE } });
  expect(pattern.status).toBeLessThan(300);
  host.checkout("feature", true);
  host.write("pkg/__version__.py", '__title__ = "pager"\n__version__ = "1.1.0"\n');
  host.write(
    "pkg/pager.py",
    [
      "import os",
      "",
      "",
      "def _tempfilepager(generator, cmd, color, args):",
      "    if os.path.isdir(cmd):",
      "        return None",
      "    return [cmd, *args]",
      "",
      "",
      "def pager(generator, color=None):",
      '    return _tempfilepager(generator, "less", color, ["-R"])',
      "",
    ].join("\n"),
  );
  const headSha = host.commit("pager args");
  host.push("feature");
  const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
    action: "opened", repo: REPO, number: 1, title: "Pager args", head: "feature", headSha, base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z",
  });
  expect((await (await deliverGitHub(server, "pull_request", opened)).json()).outcome).toBe("recorded");
});
afterAll(async () => {
  await server?.stop({ remove: true });
  host?.remove();
});

describe("the summary of a review without an index or a model", () => {
  it("reads each finding as a sentence, does not take a version bump for a signature, and checks a private function's callers in its file", async () => {
    const res = await server.api("/v2/code-reviews", { method: "POST", json: { ...repoArgs, prNumber: 1 } });
    expect(res.status).toBe(202);
    const { codeReviewId } = (await res.json()) as { codeReviewId: string };
    await server.loupe.services.reviews.idle();
    const record = server.loupe.services.reviews.record(orgId, codeReviewId)!;
    expect(record.status).toBe("COMPLETED");
    const body = record.body;
    expect(body).toContain("- `pkg/__version__.py`: changes `__version__`\n");
    expect(body).toContain("- `pkg/pager.py`: changes `_tempfilepager()` (signature), `pager()` (signature)");
    // The team pattern's finding: its rule quoted in the line, not a dangling colon.
    expect(body).toContain(`- **medium** \`pkg/pager.py:5\`: This line matches the team pattern \`os.path.isdir\`: ${RULE}\n`);
    expect(body).toContain("- 1 team pattern checked against the added lines.");
    expect(body).not.toContain("matched against the added lines");
    // `_tempfilepager` is private and its one call, in its file, passes the new arguments; `pager` is public: not checked.
    expect(body).toContain("- The calls of 1 private definition whose signature changed or that was renamed or removed, in its own file (no other file can call it), read at this pull request's head.");
    expect(body).toContain("- Not checked: the callers elsewhere in the repository of the definitions whose signature changed or that were renamed or removed (the repository is not indexed).");
    expect(body).toContain("**Confidence score: 3/5**: 1 medium-severity issue; no chat model read the change, so its logic was not reviewed; 1 definition changed signature or was renamed or removed, and its callers elsewhere were not checked.");
  });
});
