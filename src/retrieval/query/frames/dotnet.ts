/**
 * .NET exceptions (C#, F#, VB): `   at Acme.Parser.ParseHeader(String s) in C:\src\Acme\Parser.cs:line 42`,
 * without ` in ...` when the build has no symbols. The symbol is `Class.Method`; an async method's state
 * machine (`<LoadAsync>d__5.MoveNext`) and a lambda (`<Main>b__0_0`) are the method they were written in.
 */
import type { FrameMatch } from "../types.ts";
import { framePath, pathOrigin } from "../paths.ts";

const DOTNET_FRAME = /^\s*at ((?:[\w`<>$]+\.)*[\w`<>$]+)(?:\[[^\]]*\])?\(([^()]*)\)(?: in (.+?):line (\d+))?\s*$/;
/** The framework's own namespaces. */
const RUNTIME_NAMESPACES = /^(?:System|Microsoft|Internal|Windows)\./;

export function dotnetFrame(line: string): FrameMatch | null {
  const m = DOTNET_FRAME.exec(line);
  if (!m || (m[3] === undefined && !dotnetParameters(m[2]!))) return null;
  const qualified = m[1]!;
  const location = m[3] ?? null;
  const path = location === null ? null : framePath(location);
  const origin = RUNTIME_NAMESPACES.test(qualified) ? "runtime" : path === null ? "project" : pathOrigin(location!);
  return {
    frame: { path, line: m[4] !== undefined ? Number(m[4]) : null, symbol: dotnetSymbol(qualified), origin, language: "csharp" },
    order: "inner-first",
    lines: 1,
  };
}

/**
 * Parameters as .NET prints them (`String s`, `Int32 n, Boolean b`, or none): without a file, only they
 * tell a .NET frame; `at foo.Bar(Bar.java:1)`, `(Unknown Source)` and `(Native Method)` are the JVM's
 * (./jvm.ts, read next).
 */
const dotnetParameters = (params: string): boolean =>
  /^(?:|[\w.`<>[\],&*]+ \w+(?:, [\w.`<>[\],&*]+ \w+)*)$/.test(params) && !/^(?:Unknown Source|Native Method)$/.test(params);

/** `Acme.Svc.<LoadAsync>d__5.MoveNext` -> `Svc.LoadAsync`; `Acme.Program.<>c.<Main>b__0_0` -> `Program.Main`. */
export function dotnetSymbol(qualified: string): string | null {
  const parts = qualified.split(".").filter((p) => p !== "");
  const out: string[] = [];
  for (const part of parts) {
    const generated = /^<([A-Za-z_]\w*)>/.exec(part);
    if (generated) out.push(generated[1]!);
    else if (/^[A-Za-z_]\w*(?:`\d+)?$/.test(part)) out.push(part.replace(/`\d+$/, ""));
  }
  // A state machine's or lambda's own method (`MoveNext`, `Invoke`) is not what was written.
  if (out.length > 2 && /^(?:MoveNext|Invoke)$/.test(out[out.length - 1]!) && parts.some((p) => p.startsWith("<"))) out.pop();
  const named = out.slice(-2);
  return named.length > 0 ? named.join(".") : null;
}
