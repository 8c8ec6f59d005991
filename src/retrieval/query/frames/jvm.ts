/**
 * Java, Kotlin and other JVM exceptions: `\tat com.foo.Bar.method(Bar.java:123)` (with module and
 * class-loader prefixes: `java.base/`, `app//`), `Caused by:` / `Suppressed:` chains and `... 5 more`.
 * The package and the file name make the path suffix (`com/foo/Bar.java`), so the repository's
 * `src/main/java/com/foo/Bar.java` matches; the symbol is `Class.method`. Kotlin compiler output
 * (`e: file:///path/Foo.kt:12:5 message`) is read here too.
 */
import type { FrameMatch, FrameOrigin, ReportLanguage } from "../types.ts";
import { framePath, pathOrigin } from "../paths.ts";

const AT = /^\s*(?:[EWIDV]\/[\w.$-]+\(\s*\d+\):\s*)?at ((?:[\w.$@-]*\/+)*)((?:[A-Za-z_$][\w$]*\.)+)([\w$<>-]+)\(([^()]*)\)(?:\s*~?\[[^\]]*\])?\s*$/;
const KOTLINC = /^\s*[ew]: (?:file:\/\/)?((?:[A-Za-z]:)?[^\s:]+\.kts?)(?::(\d+)(?::\d+)?|: \((\d+), \d+\)):?\s+(.*)$/;

/** Packages of the JDK and of language runtimes on the JVM. */
const RUNTIME_PACKAGES = /^(?:java|javax|jdk|sun|com\.sun|kotlin|scala|groovy|clojure)\./;
/** Test runners, build tools and IDE launchers that wrap a project's frames. */
const LIBRARY_PACKAGES = /^(?:org\.junit|junit|org\.testng|org\.apache\.maven\.surefire|org\.gradle|worker\.org\.gradle|com\.intellij\.rt|kotlinx\.coroutines|org\.codehaus\.groovy)\./;

export function jvmFrame(line: string): FrameMatch | null {
  const k = KOTLINC.exec(line);
  if (k) {
    const location = k[1] ?? "";
    const path = framePath(location);
    return {
      frame: { path, line: Number(k[2] ?? k[3]), symbol: null, origin: path === null ? "runtime" : pathOrigin(location), language: "kotlin" },
      order: "inner-first",
      lines: 1,
      startsStack: /^\s*e:/.test(line),
      message: k[4] ?? "",
      diagnostic: true,
    };
  }
  const m = AT.exec(line);
  if (!m) return null;
  const qualified = (m[2] ?? "").slice(0, -1); // com.foo.Bar$Inner
  const method = m[3] ?? "";
  const source = (m[4] ?? "").trim(); // Bar.java:123 | Unknown Source | Native Method
  const parts = qualified.split(".");
  const className = parts[parts.length - 1] ?? "";
  const packageParts = parts.slice(0, -1);
  const file = /^([\w$-]+\.(?:java|kt|kts|scala|groovy|clj))(?::(\d+))?$/.exec(source);
  const language: ReportLanguage = file && /\.kts?$/.test(file[1] ?? "") ? "kotlin" : "java";
  const location = file ? [...packageParts, file[1]].join("/") : null;
  const path = location === null ? null : framePath(location);
  const origin: FrameOrigin = RUNTIME_PACKAGES.test(qualified) ? "runtime" : LIBRARY_PACKAGES.test(qualified) ? "library" : "project";
  return {
    frame: { path, line: file?.[2] !== undefined ? Number(file[2]) : null, symbol: jvmSymbol(className, method), origin, language },
    order: "inner-first",
    lines: 1,
  };
}

/**
 * `Bar$Inner` + `method` -> `Inner.method`; constructors (`<init>`) -> the class; lambdas and Kotlin's
 * generated classes (`lambda$load$0`, `SyncWorker$run$1.invokeSuspend`) -> the function they were written in.
 */
export function jvmSymbol(className: string, method: string): string | null {
  const nested = className.split("$").filter((p) => p !== "");
  const named = nested.filter((p) => /^[A-Za-z_]\w*$/.test(p));
  const owner = named.filter((p) => /^[A-Z]/.test(p));
  const ownerName = owner[owner.length - 1] ?? named[0] ?? null;
  const lambda = /^lambda\$(\w+?)\$\d+$/.exec(method);
  let name: string | null = method;
  if (lambda) name = lambda[1] ?? null;
  else if (method === "<init>" || method === "<clinit>") name = null;
  else if (/^access\$\d+$/.test(method)) name = null;
  else if (/^(?:invoke|invokeSuspend|run|call|accept|apply|get)$/.test(method) && nested.length > 1) {
    // A lambda class `Outer$function$1`: its function's name sits between the class and the number.
    const fn = [...nested].reverse().find((p) => /^[a-z_]\w*$/.test(p));
    if (fn !== undefined) name = fn;
  }
  if (name !== null && !/^[A-Za-z_]\w*$/.test(name)) name = null;
  if (name === null) return ownerName;
  return ownerName === null ? name : `${ownerName}.${name}`;
}
