import { describe, expect, it } from "vitest";
import { inFolders, vendoredFolders } from "../../src/indexing/vendored-folders.ts";

const tree = (entries: Record<string, string>) => Object.entries(entries).map(([path, blobId]) => ({ path, blobId }));

describe("vendored folders: code that carries a license of its own", () => {
  it("a folder with its own license, code and no manifest is vendored, with everything under it", () => {
    const folders = vendoredFolders(
      tree({
        LICENSE: "mit",
        "src/main.c": "a",
        "src/decNumber/ICU-license.html": "icu",
        "src/decNumber/decNumber.c": "b",
        "src/decNumber/sub/extra.h": "c",
        "core/src/spin/LICENSE": "spin-mit",
        "core/src/spin/mutex.rs": "d",
      }),
    );
    expect(folders).toEqual(["core/src/spin", "src/decNumber"]);
    expect(inFolders("src/decNumber/sub/extra.h", folders)).toBe(true);
    expect(inFolders("src/decNumberX.c", folders)).toBe(false);
    expect(inFolders("src/main.c", folders)).toBe(false);
  });

  it("the project's own packages, license copies, docs and folders without code are not", () => {
    expect(
      vendoredFolders(
        tree({
          LICENSE: "mit",
          // A workspace member: its manifest says it is the project's own package.
          "tracing-core/LICENSE": "mit-2",
          "tracing-core/Cargo.toml": "e",
          "tracing-core/src/lib.rs": "f",
          // The root's license copied into a folder.
          "packages/cli/LICENSE": "mit",
          "packages/cli/index.js": "g",
          // Documentation and examples keep their license pages.
          "docs/license.rst": "h",
          "docs/conf.py": "i",
          "examples/tutorial/LICENSE.txt": "j",
          "examples/tutorial/app.py": "k",
          // A license beside resources only.
          "src/main/resources/META-INF/LICENSE": "l",
          "src/main/resources/META-INF/services/x": "m",
        }),
      ),
    ).toEqual([]);
  });
});
