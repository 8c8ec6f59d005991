/** What an import-like statement brings in, for the summaries of the blocks that hold imports (./definitions.ts). */
import type { Node } from "web-tree-sitter";

const IMPORT_TYPES =
  /^(import_statement|import_from_statement|future_import_statement|import_declaration|import_list|import_header|use_declaration|using_directive|preproc_include|namespace_use_declaration|extern_crate_declaration)$/;

/** For block summaries: the modules an import-like statement brings in, or null if it is not one. */
export const importTargetsOf = (node: Node, nodeType: string = node.type): string[] | null => {
  // `node.text` is read once: each read slices the source again through web-tree-sitter.
  let full: string | null = null;
  const textOf = (): string => (full ??= node.text);
  const isRequire = nodeType === "call" && /^require(_relative)?\b/.test(textOf());
  if (!IMPORT_TYPES.test(nodeType) && !isRequire) {
    if (!((nodeType === "lexical_declaration" || nodeType === "variable_declaration") && /=\s*require\(/.test(textOf().slice(0, 200)))) return null;
  }
  const text = textOf().length > 400 ? textOf().slice(0, 400) : textOf();
  const quoted = [...text.matchAll(/["'<]([^"'<>\n]+)["'>]/g)].map((m) => m[1]!);
  if (quoted.length) return quoted.slice(0, 6);
  const from = /^from\s+(\S+)\s+import\s+\(?\s*([\w.]+)/.exec(text);
  if (from) return [/^\.+$/.test(from[1]!) ? `${from[1]}${from[2]}` : from[1]!];
  return [
    text
      .replace(/^(import|use|using|require|extern\s+crate)\s+(static\s+)?/, "")
      .replace(/[;\s]+$/, "")
      .replace(/\s+/g, " ")
      .slice(0, 60),
  ];
};
