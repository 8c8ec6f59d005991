/**
 * Chunks that hold no behaviour: what a program does cannot be fixed in them, though they write the
 * names and words of the code that does it (and, with its doc comment, often more of them).
 *  - TypeScript's interfaces and type aliases, erased when the program runs;
 *  - a method or function declared without a body: an interface's or an abstract method, a prototype
 *    (`public function diffInDays($date = null): float;`, `void Write(LogEvent logEvent);`);
 *  - an interface, trait or protocol kept whole whose members have no body (its own brace is its only one).
 */
import type { ChunkDocument } from "../codeindex/port.ts";

/** TypeScript's interfaces and type aliases. */
export const isTypeOnly = (doc: Pick<ChunkDocument, "kind" | "language">): boolean =>
  (doc.language === "typescript" || doc.language === "tsx") && (doc.kind === "interface" || doc.kind === "type");

/** Languages whose bodies are braces and whose declarations end with `;`. */
const SEMICOLON_LANGUAGES = new Set(["java", "csharp", "php", "c", "cpp", "typescript", "tsx", "javascript", "scala", "dart"]);

/** A line of a doc comment or a comment, an annotation or attribute line, or blank. */
const NOT_CODE = /^\s*(?:$|\/\/|\/\*|\*|#\[|\[[A-Z]\w*(?:\(.*\))?\]\s*$|@[A-Z]\w*(?:\(.*\))?\s*$)/;

/** A method or function whose code opens no body and ends with `;`; an interface whose members open none. */
export function isBodiless(doc: Pick<ChunkDocument, "kind" | "language" | "text">): boolean {
  const member = (doc.kind === "method" || doc.kind === "function") && SEMICOLON_LANGUAGES.has(doc.language);
  // TypeScript's interfaces are types, which a type-level fix changes alone (isTypeOnly); elsewhere an
  // interface's signature changes with its implementations'.
  if (!member && (doc.kind !== "interface" || doc.language === "typescript" || doc.language === "tsx")) return false;
  // A member with a body ends with its `}`: only one ending with `;` is read line by line (a search ranks
  // hundreds of chunks, most of them with bodies).
  if (member && lastChar(doc.text) !== ";") return false;
  return readsBodiless(doc.text, member);
}

/** The text's last character that is not white space ("" for none). */
function lastChar(text: string): string {
  let i = text.length - 1;
  while (i >= 0 && (text.charCodeAt(i) <= 32)) i--;
  return i >= 0 ? text[i]! : "";
}

function readsBodiless(text: string, member: boolean): boolean {
  let last = "";
  let braces = 0;
  for (const line of text.split("\n")) {
    if (NOT_CODE.test(line)) continue;
    if (line.includes("=>") || (member && line.includes("{"))) return false;
    for (let i = line.indexOf("{"); i >= 0; i = line.indexOf("{", i + 1)) braces++;
    last = line;
  }
  return member ? last.trimEnd().endsWith(";") : braces === 1;
}
