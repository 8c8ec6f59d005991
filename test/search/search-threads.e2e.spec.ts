import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.ts";
import { createGitHostFixture, type GitHostFixture, type WorkRepo } from "../support/git-fixtures.ts";
import { indexRepository } from "./support.ts";

/**
 * Searches on worker threads (LOUPE_SEARCH_THREADS) answer exactly as searches on the serving thread,
 * and see every re-index at once (the threads' caches are keyed by the writer's generations).
 */
const FILES = {
  "app/orders.py": "def place_order(cart, customer):\n    \"\"\"Places an order for the customer's cart.\"\"\"\n    return Order(cart, customer)\n",
  "app/refunds.py": "def refund_order(order, reason):\n    \"\"\"Refunds an order, recording the reason.\"\"\"\n    return Refund(order, reason)\n",
  "app/ledger.py": "class Ledger:\n    \"\"\"Double-entry ledger of payments and refunds.\"\"\"\n\n    def post(self, entry):\n        self.entries.append(entry)\n",
};
const QUERIES = ["refund_order", "how is an order placed for a customer", "Ledger post entry", "where are refunds recorded with a reason"];

describe("search threads", () => {
  let host: GitHostFixture;
  let repo: WorkRepo;
  let server: TestServer;
  const ref = { remote: "github", repository: "acme/store", branch: "main" };

  // The repository is indexed with searches on the serving thread; the same data directory is then served
  // with search threads, whose start (each thread loads the search code) is paid once.
  beforeAll(async () => {
    host = createGitHostFixture();
    repo = host.createRepo("acme/store", FILES);
    server = await startTestServer({ env: { LOUPE_GITHUB_URL: host.baseUrl, LOUPE_SEARCH_THREADS: "0" } });
    await indexRepository(server, ref);
  }, 120_000);

  afterAll(async () => {
    await server?.stop({ remove: true });
    host?.cleanup();
  });

  const searchAll = async (s: TestServer) => {
    const out: unknown[] = [];
    for (const query of QUERIES) {
      const res = await s.api("/v2/search", { method: "POST", json: { query, repositories: [ref] } });
      expect(res.status).toBe(200);
      out.push(await res.json());
    }
    return out;
  };

  it("answer as the serving thread does, and see a re-index at once", async () => {
    const inline = await searchAll(server);
    expect((inline[0] as { filepath: string }[])[0]!.filepath).toBe("app/refunds.py");

    // The same data directory served with searches on threads: the same answers.
    const dataDir = server.dataDir;
    await server.stop();
    server = await startTestServer({ dataDir, env: { LOUPE_GITHUB_URL: host.baseUrl, LOUPE_SEARCH_THREADS: "2" } });
    expect(await searchAll(server)).toEqual(inline); // also warms the threads' caches before the write

    // A new file is found as soon as the re-index completes.
    repo.write({ "app/chargebacks.py": "def dispute_chargeback(payment):\n    \"\"\"Opens a chargeback dispute for a payment.\"\"\"\n" });
    repo.commit("chargebacks");
    repo.publish();
    const reload = await server.api("/v2/repositories", { method: "POST", json: { ...ref, reload: true } });
    expect(reload.status).toBeLessThan(300);
    await indexRepository(server, ref);
    const found = (await (await server.api("/v2/search", { method: "POST", json: { query: "dispute_chargeback", repositories: [ref] } })).json()) as { filepath: string }[];
    expect(found[0]!.filepath).toBe("app/chargebacks.py");
  }, 240_000);
});
