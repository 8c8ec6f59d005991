import { describe, expect, it } from "vitest";
import { denoBin, spawnProcess } from "../support/process.ts";
import { localeFiles, namedLocaleFiles } from "../../src/retrieval/locales.ts";

/**
 * A project's translations are found with the runtime's own locale data (Intl.DisplayNames), which Node
 * and Deno ship in different sizes: a collection of common locales, and the languages a query names among
 * them, come out the same on both.
 */
const PATHS = [...["en", "sv", "de", "fr", "es", "es-do", "pt_BR", "zh-cn", "lv", "vi", "ja", "tzl"].map((t) => `src/locale/${t}.js`), "src/index.js"];
const QUERY = "ordinal formatting in swedish and the spanish months";

const summary = () => {
  const files = localeFiles(PATHS);
  return { files: [...files.keys()].sort(), named: namedLocaleFiles(QUERY, files).sort() };
};

describe("translations on Deno", () => {
  it("finds the same locale files and the same named languages as on Node", async () => {
    const script = [
      `import { localeFiles, namedLocaleFiles } from "./src/retrieval/locales.ts";`,
      `const files = localeFiles(${JSON.stringify(PATHS)});`,
      `console.log(JSON.stringify({ files: [...files.keys()].sort(), named: namedLocaleFiles(${JSON.stringify(QUERY)}, files).sort() }));`,
    ].join("\n");
    const proc = spawnProcess(denoBin, ["eval", "--ext=ts", script], { DENO_NO_UPDATE_CHECK: "1" });
    expect(await proc.exited).toBe(0);
    const onNode = summary();
    expect(onNode.files).toHaveLength(12);
    expect(onNode.named).toEqual(["src/locale/es-do.js", "src/locale/es.js", "src/locale/sv.js"]);
    expect(JSON.parse(proc.output().trim().split("\n").pop()!)).toEqual(onNode);
  }, 60_000);
});
