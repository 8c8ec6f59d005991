import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startTestServer } from "../support/server.ts";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("secrets", () => {
  it("never writes key material to the data directory or the logs", async () => {
    const bootstrap = "lp_bootstrap_" + "S3cr3t".repeat(6);
    const server = await startTestServer({ env: { LOUPE_API_KEY: bootstrap, LOUPE_LOG_LEVEL: "trace" } });
    const secrets = [bootstrap];
    try {
      for (const role of ["admin", "member", "member"]) {
        const issued = await (await server.api("/v2/keys", { method: "POST", json: { name: `k-${role}`, role } })).json();
        secrets.push(issued.key);
        expect((await server.api("/v2/me", { key: issued.key })).status).toBe(200);
      }
      const org = await (await server.api("/v2/organisations", { method: "POST", json: { name: "o2" } })).json();
      secrets.push(org.adminKey.key);
      await server.api("/v2/keys", { key: org.adminKey.key });
      await server.api(`/v2/keys/${(await (await server.api("/v2/keys")).json()).keys[1].keyId}`, { method: "DELETE" });
      await server.api("/v2/me", { key: secrets[1]!, headers: { "x-host-token": "ghp_hostTokenThatMustNotLeak123" } });
      secrets.push("ghp_hostTokenThatMustNotLeak123");
    } finally {
      await server.stop();
    }
    const logs = server.logs();
    expect(logs.length).toBeGreaterThan(0);
    const files = filesUnder(server.dataDir);
    expect(files.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      const needle = Buffer.from(secret);
      const secretPart = Buffer.from(secret.slice(3));
      expect(logs.includes(secret)).toBe(false);
      for (const file of files) {
        const content = readFileSync(file);
        expect(content.includes(needle), `${secret.slice(0, 6)}… found in ${file}`).toBe(false);
        expect(content.includes(secretPart), `secret part found in ${file}`).toBe(false);
      }
    }
  });
});
