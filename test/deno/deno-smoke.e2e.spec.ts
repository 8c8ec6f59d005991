import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { denoBin, freePort, spawnProcess, waitForHttp } from "../support/process.ts";

/** The same source served by Deno 2: health, then an authenticated write and a read that sees it. */
describe("Deno runtime", () => {
  it("serves /healthz and an authenticated write and read", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "loupe-deno-"));
    const port = await freePort();
    const adminKey = "lp_deno_smoke_admin_key_0123456789";
    const proc = spawnProcess(denoBin, ["run", "-A", "--unstable-no-legacy-abort", "src/main.ts"], {
      PORT: String(port),
      LOUPE_HOST: "127.0.0.1",
      LOUPE_DATA_DIR: dataDir,
      LOUPE_API_KEY: adminKey,
      LOUPE_LOG_LEVEL: "warn",
      DENO_NO_UPDATE_CHECK: "1",
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitForHttp(`${base}/healthz`, 60_000).catch((e) => {
        throw new Error(`${e.message}\n${proc.output()}`);
      });
      const headers = { authorization: `Bearer ${adminKey}`, "content-type": "application/json" };
      const created = await fetch(`${base}/v2/keys`, { method: "POST", headers, body: JSON.stringify({ name: "from deno test" }) });
      expect(created.status).toBe(201);
      const { keyId } = await created.json();
      const listed = await (await fetch(`${base}/v2/keys`, { headers })).json();
      expect(listed.keys.map((k: { keyId: string }) => k.keyId)).toContain(keyId);
      expect(proc.output()).not.toMatch(/error/i);
    } finally {
      proc.child.kill("SIGTERM");
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
