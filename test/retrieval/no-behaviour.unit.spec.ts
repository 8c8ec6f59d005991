import { describe, expect, it } from "vitest";
import { isBodiless, isTypeOnly } from "../../src/retrieval/no-behaviour.ts";
import type { ChunkDocument } from "../../src/codeindex/port.ts";

type Doc = Pick<ChunkDocument, "kind" | "language" | "text">;
const doc = (language: string, kind: ChunkDocument["kind"], text: string): Doc => ({ language, kind, text });

describe("chunks that hold no behaviour", () => {
  it("reads a method declared without a body, its doc comment and attributes aside", () => {
    const php = ["/**", " * Get the difference in hours.", " * @return float", " */", "public function diffInHours($date = null, bool $absolute = false): float;"].join("\n");
    expect(isBodiless(doc("php", "method", php))).toBe(true);
    const cs = ["/// <summary>Write an event.</summary>", '[MessageTemplateFormatMethod("messageTemplate")]', "void Write(LogEventLevel level,", "    string messageTemplate);"].join("\n");
    expect(isBodiless(doc("csharp", "method", cs))).toBe(true);
    expect(isBodiless(doc("java", "method", "@Override\nabstract JsonToken nextToken() throws IOException;"))).toBe(true);
  });

  it("reads a body, an arrow body, a class or a language without semicolons as behaviour", () => {
    expect(isBodiless(doc("php", "method", "public function diffInHours($date = null): float\n{\n    return 1.0;\n}"))).toBe(false);
    expect(isBodiless(doc("csharp", "method", "public int Count => items.Count;"))).toBe(false);
    expect(isBodiless(doc("java", "class", "class Empty;"))).toBe(false);
    expect(isBodiless(doc("python", "function", "def f(x): return x;"))).toBe(false);
    expect(isBodiless(doc("kotlin", "method", "fun size(): Int"))).toBe(false);
  });

  it("reads TypeScript's interfaces and type aliases as types only, its classes and functions not", () => {
    expect(isTypeOnly(doc("typescript", "interface", "export interface Options { method?: string }"))).toBe(true);
    expect(isTypeOnly(doc("tsx", "type", "type Props = { title: string }"))).toBe(true);
    expect(isTypeOnly(doc("typescript", "class", "export class Ky {}"))).toBe(false);
    expect(isTypeOnly(doc("java", "interface", "interface Runnable { void run(); }"))).toBe(false);
  });
});

describe("interfaces kept whole", () => {
  it("reads an interface, trait or protocol whose members have no body as no behaviour", () => {
    expect(isBodiless(doc("php", "interface", "interface Jar\n{\n    /** Clear the jar. */\n    public function clear(): void;\n}"))).toBe(true);
    expect(isBodiless(doc("rust", "interface", "pub trait Read<'de> {\n    fn next(&mut self) -> Result<Option<u8>>;\n}"))).toBe(true);
    expect(isBodiless(doc("kotlin", "interface", "interface Source {\n  fun read(sink: Buffer, byteCount: Long): Long\n}"))).toBe(true);
  });

  it("reads one with a default method as behaviour", () => {
    expect(isBodiless(doc("java", "interface", "interface Named {\n  default String name() {\n    return toString();\n  }\n}"))).toBe(false);
    expect(isBodiless(doc("rust", "interface", "trait Len {\n    fn len(&self) -> usize;\n    fn is_empty(&self) -> bool { self.len() == 0 }\n}"))).toBe(false);
  });
});
