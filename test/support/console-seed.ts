/**
 * What the console's browser tests and `npm run screenshots` start from: a real git repository served
 * as the "GitHub" host (file://), the real server, a pull request recorded by a signed webhook, human
 * review comments (one hostile, two that repeat a point so a pattern is learned), and a member key.
 */
import { startTestServer, type TestServer } from "./server.ts";
import { githubExample } from "./host-fixtures.ts";
import { createHostRepo, deliverGitHub, GITHUB_SECRET, pullRequestPayload } from "./pr-webhooks.ts";

export const REPO = "acme/widgets";
export const HOSTILE_BODY = 'Looks risky <img src=x onerror="window.__pwned=1"> and [see this](javascript:window.__pwned=2) <script>window.__pwned=3</script>';

export const APP_TS = `/** Parses the configuration text into key/value pairs. */
export function parseConfig(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\\n")) {
    const [key, value] = line.split("=");
    if (key && value) out[key.trim()] = value.trim();
  }
  return out;
}

/** Runs jobs on a timer. */
export class Scheduler {
  private jobs: (() => void)[] = [];
  add(job: () => void): void {
    this.jobs.push(job);
  }
}
`;

export type ConsoleSeed = {
  server: TestServer;
  memberKey: string;
  prNumber: number;
  /** The pull requests' base (main) and head (feature) commits, for more deliveries. */
  baseSha: string;
  headSha: string;
  cleanup(): Promise<void>;
};

async function comment(server: TestServer, prNumber: number, id: number, body: string, path = "src/app.ts") {
  const created = githubExample("pull_request_review_comment", "created");
  created.repository = { ...(created.repository as object), full_name: REPO };
  (created.pull_request as Record<string, unknown>).number = prNumber;
  const c = created.comment as Record<string, unknown>;
  c.id = id;
  c.body = body;
  c.path = path;
  const res = await deliverGitHub(server, "pull_request_review_comment", created);
  if (res.status >= 300) throw new Error(`comment delivery failed: ${res.status}`);
}

export async function seedConsole(): Promise<ConsoleSeed> {
  const host = createHostRepo(REPO);
  host.write("src/app.ts", APP_TS);
  host.write("lib/util.py", 'def normalise_name(name):\n    """Lower-cases and trims a name."""\n    return name.strip().lower()\n');
  host.write("README.md", "# Widgets\n\nA small widget library.\n");
  const baseSha = host.commit("initial");
  host.push("main");
  host.checkout("feature", true);
  host.write("src/app.ts", APP_TS + "\nexport function add(a: number, b: number) {\n  debugger;\n  return a + b;\n}\n");
  host.write("src/net.ts", "export async function load(path: string) {\n  return fetch('/api' + path);\n}\n");
  const headSha = host.commit("add helpers");
  host.push("feature");
  host.checkout("main");

  const server = await startTestServer({ env: { LOUPE_WEBHOOK_SECRET_GITHUB: GITHUB_SECRET, LOUPE_GITHUB_URL: host.url } });
  const prNumber = 7;
  for (const [number, title, head] of [[prNumber, "Add widget helpers", "feature"], [8, "Tidy the scheduler", "feature"]] as const) {
    const opened = pullRequestPayload(githubExample("pull_request", "opened"), {
      action: "opened", repo: REPO, number, title, head, headSha, base: "main", baseSha, updatedAt: "2024-05-01T10:00:00Z", login: "octo-dev",
    });
    const res = await deliverGitHub(server, "pull_request", opened);
    if (res.status >= 300) throw new Error(`pull request delivery failed: ${res.status}`);
  }
  await comment(server, prNumber, 501, HOSTILE_BODY);
  await comment(server, prNumber, 502, "Please wrap this database call in a transaction so partial writes cannot happen");
  await comment(server, 8, 503, "This database call should be wrapped in a transaction to avoid partial writes");
  const issued = await server.api("/v2/keys", { method: "POST", json: { name: "developer", role: "member" } });
  const { key: memberKey } = (await issued.json()) as { key: string };
  return {
    server,
    memberKey,
    prNumber,
    baseSha,
    headSha,
    async cleanup() {
      await server.stop({ remove: true });
      host.remove();
    },
  };
}
