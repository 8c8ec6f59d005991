/**
 * The Dockerfile and docker-compose.yml, checked without a Docker engine (none runs on these machines,
 * so neither file is built or started here): linted by the validator of the Dockerfile language server
 * (dockerfile-utils) and by dclint (the Compose specification's JSON schema plus its rules, configured in
 * .dclintrc.json), and held to what docs/operations.md promises: a multi-stage build, a non-root user,
 * tini as PID 1 running node itself, a healthcheck on /readyz; compose building that image, refusing to
 * start without a key, publishing no engine port, and waiting longer than the shutdown timeout.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DockerfileParser } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import { DCLinter } from "dclint";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/process.ts";

const dockerfile = readFileSync(join(repoRoot, "Dockerfile"), "utf8");
const composePath = join(repoRoot, "docker-compose.yml");
const compose = readFileSync(composePath, "utf8");
const scratch = mkdtempSync(join(tmpdir(), "loupe-container-files-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function lintCompose(text: string) {
  const path = join(scratch, `compose-${Math.random().toString(36).slice(2)}.yml`);
  writeFileSync(path, text);
  const config = JSON.parse(readFileSync(join(repoRoot, ".dclintrc.json"), "utf8")) as { rules: Record<string, 0 | 1 | 2 | [0 | 1 | 2, Record<string, unknown>?]> };
  const [result] = new DCLinter({ rules: config.rules, quiet: false, debug: false, exclude: [] }).lintFiles([path], false);
  const messages = result!.messages as { type: string; rule: string; message: string }[];
  return messages.map((m) => `${m.type} ${m.rule}: ${m.message}`);
}

const seconds = (duration: string) => {
  const m = /^(\d+)(ms|s|m)$/.exec(duration);
  if (!m) throw new Error(`unexpected duration ${duration}`);
  return Number(m[1]) * ({ ms: 0.001, s: 1, m: 60 } as const)[m[2] as "ms" | "s" | "m"];
};

describe("Dockerfile", () => {
  it("passes the Dockerfile validator (and the validator catches a broken one)", () => {
    expect(validate(dockerfile, {}).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
    const broken = dockerfile.replace("HEALTHCHECK --interval=15s", "HEALTHCHECK --intervl=15s").replace("\nUSER node", "\nUSR node");
    expect(validate(broken, {}).map((d) => d.message)).toEqual(expect.arrayContaining(["Unknown instruction: USR", "Unknown flag: intervl"]));
  });

  it("builds in stages and runs node as a non-root user under tini, with a healthcheck on /readyz", () => {
    const instructions = DockerfileParser.parse(dockerfile).getInstructions();
    const froms = instructions.filter((i) => i.getKeyword() === "FROM");
    expect(froms.length).toBeGreaterThanOrEqual(2);
    const lastStage = instructions.slice(instructions.indexOf(froms.at(-1)!));
    const args = (keyword: string) => lastStage.filter((i) => i.getKeyword() === keyword).map((i) => i.getArgumentsContent() ?? "");
    expect(args("USER")).toHaveLength(1);
    expect(args("USER")[0]).not.toMatch(/^(root|0)(:|$)/);
    expect(JSON.parse(args("ENTRYPOINT")[0]!)).toEqual(["/usr/bin/tini", "--"]);
    expect(JSON.parse(args("CMD")[0]!)[0]).toBe("node"); // exec form: tini's child is node, not a shell or npm
    expect(args("HEALTHCHECK")[0]).toContain("/readyz");
    expect(lastStage.some((i) => i.getKeyword() === "RUN" && /npm (ci|install)/.test(i.getArgumentsContent() ?? ""))).toBe(false);
  });
});

describe("docker-compose.yml", () => {
  it("passes dclint (schema and rules) with no error or warning, and dclint catches a broken file", () => {
    expect(lintCompose(compose)).toEqual([]);
    const broken = compose.replace("    restart: unless-stopped\n", "    restart: unless-stopped\n    ports: [2113:2113]\n    colour: blue\n");
    const messages = lintCompose(broken);
    expect(messages.some((m) => m.startsWith("error invalid-schema"))).toBe(true);
  });

  it("builds Loupe's image, needs a real key, publishes no engine port and outwaits the shutdown timeout", () => {
    const doc = parse(compose) as { services: Record<string, Record<string, unknown>> };
    const loupe = doc.services.loupe!;
    expect(loupe.build).toBe(".");
    const environment = loupe.environment as Record<string, string>;
    expect(environment.LOUPE_API_KEY).toMatch(/^\$\{LOUPE_ADMIN_KEY:\?.+\}$/);
    expect(compose).not.toContain("change-me");
    for (const engine of ["eventstore", "elasticsearch"]) {
      expect(doc.services[engine]!.ports, engine).toBeUndefined();
      expect(doc.services[engine]!.healthcheck, engine).toBeDefined();
      expect((loupe.depends_on as Record<string, { condition: string }>)[engine]!.condition).toBe("service_healthy");
    }
    // The server's shutdown timeout plus its 5 s hard deadline must end before Docker's SIGKILL.
    expect(seconds(String(loupe.stop_grace_period))).toBeGreaterThan(Number(environment.LOUPE_SHUTDOWN_TIMEOUT_MS) / 1000 + 5);
  });
});
