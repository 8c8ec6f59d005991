import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { denoBin, freePort, spawnProcess, waitForHttp } from "../support/process.ts";

/** The same source served by Deno 2: health, an authenticated write and a read that sees it, and the web console. */
describe("Deno runtime", () => {
  it("serves /healthz, an authenticated write and read, and the web console", async () => {
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
      // The web console: sign in with the key (a session cookie comes back), a page, a change, its page.
      const cookies = new Map<string, string>();
      const browse = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(`${base}${path}`, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string>), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
        for (const line of res.headers.getSetCookie()) {
          const [name, value] = line.split(";")[0]!.split("=");
          cookies.set(name!, value ?? "");
        }
        return res;
      };
      const form = (fields: Record<string, string>) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
      const signInPage = await (await browse("/console/sign-in")).text();
      const signInToken = /name="_csrf" value="([^"]+)"/.exec(signInPage)![1]!;
      expect((await browse("/console/sign-in", form({ _csrf: signInToken, apiKey: adminKey }))).status).toBe(303);
      const repositories = await browse("/console/repositories");
      expect(repositories.status).toBe(200);
      expect(repositories.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(await repositories.text())![1]!;
      const contextCreated = await browse("/console/custom-context", form({ _csrf: csrf, body: "Use **httpClient** <img src=x onerror=alert(1)>", scopes: "{}" }));
      expect(contextCreated.status).toBe(303);
      const detail = await (await browse(new URL(contextCreated.headers.get("location")!, base).pathname)).text();
      expect(detail).toContain("<strong>httpClient</strong> &lt;img src=x onerror=alert(1)&gt;");
      expect(proc.output()).not.toMatch(/error/i);
    } finally {
      proc.child.kill("SIGTERM");
      await proc.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
