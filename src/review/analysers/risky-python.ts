/** Python: eval/exec, unsafe deserialisation, shell=True, bare except, mutable default arguments. */
import type { Finding } from "../findings.ts";
import { forEachAddedLine, lineFinding, splitCode, type Analyser, type AnalyserContext } from "./context.ts";

const EVAL_EXEC = /(?<![\w.])(eval|exec)\s*\(/;
const PICKLE = /\b(pickle|cPickle|_pickle|dill|marshal)\.loads?\s*\(/;
const YAML_LOAD = /\byaml\.(load|load_all)\s*\(/;
const SAFE_LOADER = /Loader\s*=\s*(yaml\.)?(C?SafeLoader|BaseLoader)\b/;
const SHELL_TRUE = /\bshell\s*=\s*True\b/;
const OS_SYSTEM = /\bos\.(system|popen)\s*\(/;
const BARE_EXCEPT = /^(\s*)except\s*:(.*)$/;
const DEF = /^\s*(?:async\s+)?def\s+\w+\s*\((.*)$/;
const MUTABLE_DEFAULT = /(\w+)\s*(?::[^=,()]*)?=\s*(\[[^\]]*\]|\{[^}]*\}|list\(\s*\)|dict\(\s*\)|set\(\s*\))\s*(?=[,)])/;

const SUPPRESSED = /#.*\bnoqa\b/i;
const BARE_RAISE = /^\s*raise\s*(#.*)?$/;
const BROAD_EXCEPT = /^\s*except\s*\(?[^:]*\b(Exception|BaseException)\b[^:]*:/;
const indentOf = (text: string) => text.length - text.trimStart().length;

/**
 * A bare `except:` is reported unless its line says `# noqa`, or its body (as far as the diff shows
 * it) re-raises with a bare `raise`. After an `except Exception` clause of the same `try`, it can only
 * catch what Exception does not (KeyboardInterrupt, SystemExit): then `except BaseException:` says
 * so, at low severity, instead of an `except Exception:` that would be dead code.
 */
function bareExcept(ctx: AnalyserContext, line: number, text: string, indent: string, rest: string) {
  if (SUPPRESSED.test(text)) return null;
  const depth = indent.length;
  for (let n = line + 1; ; n++) {
    const l = ctx.newLines.get(n);
    if (!l) break;
    if (l.text.trim() === "") continue;
    if (indentOf(l.text) <= depth) break;
    if (BARE_RAISE.test(splitCode(l.text, "python").code) || BARE_RAISE.test(l.text)) return null;
  }
  for (let n = line - 1; n >= 1; n--) {
    const l = ctx.newLines.get(n);
    if (!l) break;
    if (l.text.trim() === "" || indentOf(l.text) > depth) continue;
    if (indentOf(l.text) < depth || /^\s*try\s*:/.test(l.text)) break;
    if (BROAD_EXCEPT.test(l.text)) {
      return lineFinding(
        ctx,
        "python/bare-except",
        "low",
        line,
        "After `except Exception`, this bare `except:` catches only `KeyboardInterrupt`, `SystemExit` and the like; write `except BaseException:` to say so.",
        `${indent}except BaseException:${rest}`,
      );
    }
    if (!/^\s*except\b/.test(l.text)) break;
  }
  return lineFinding(ctx, "python/bare-except", "medium", line, "A bare `except:` also catches `KeyboardInterrupt` and `SystemExit`; catch `Exception` (or something narrower).", `${indent}except Exception:${rest}`);
}

export const riskyPythonAnalyser: Analyser = (file, ctx) => {
  if (ctx.skip || ctx.language !== "python") return [];
  const out: Finding[] = [];
  forEachAddedLine(file, (line, text) => {
    const { code } = splitCode(text, "python");
    const ev = EVAL_EXEC.exec(code);
    // `exec(compile(source, path, "exec"))`: code the author compiled from a file on purpose (a startup
    // script, a config module), not data parsed by eval.
    if (ev && !/^\s*compile\s*\(/.test(code.slice(ev.index + ev[0].length))) {
      out.push(lineFinding(ctx, "python/eval", "high", line, `\`${ev[1]}()\` executes arbitrary code. For data use \`ast.literal_eval\` or \`json.loads\`; otherwise dispatch through an explicit table.`));
      return;
    }
    const pk = PICKLE.exec(code);
    if (pk) {
      out.push(lineFinding(ctx, "python/unsafe-deserialization", "high", line, `\`${pk[1]}.load(s)\` can execute code while loading: never use it on data that could come from outside. Prefer JSON or another data-only format.`));
      return;
    }
    const y = YAML_LOAD.exec(code);
    if (y && !SAFE_LOADER.test(code)) {
      const safe = y[1] === "load" ? "safe_load" : "safe_load_all";
      const canRewrite = !/Loader\s*=/.test(code);
      const suggestion = canRewrite ? text.replace(/\byaml\.(load|load_all)\s*\(/, `yaml.${safe}(`) : undefined;
      out.push(lineFinding(ctx, "python/yaml-load", "high", line, `\`yaml.${y[1]}\` without \`SafeLoader\` can construct arbitrary Python objects from the document; use \`yaml.${safe}\`.`, suggestion));
      return;
    }
    if (SHELL_TRUE.test(code)) {
      out.push(lineFinding(ctx, "python/subprocess-shell", "high", line, "`shell=True` hands the command to the shell: any interpolated value can inject commands. Pass an argument list and keep `shell=False`."));
      return;
    }
    if (OS_SYSTEM.test(code)) {
      out.push(lineFinding(ctx, "python/os-system", "medium", line, "`os.system`/`os.popen` run through the shell; prefer `subprocess.run([...])` with an argument list."));
      return;
    }
    const be = BARE_EXCEPT.exec(text);
    if (be && BARE_EXCEPT.test(code)) {
      const finding = bareExcept(ctx, line, text, be[1]!, be[2]!);
      if (finding) out.push(finding);
      return;
    }
    const def = DEF.exec(code);
    if (def) {
      const md = MUTABLE_DEFAULT.exec(def[1]!);
      if (md) {
        out.push(lineFinding(ctx, "python/mutable-default", "medium", line, `Parameter \`${md[1]}\` has a mutable default (\`${md[2]}\`) that is shared between calls; default to \`None\` and create the value inside the function.`));
      }
    }
  });
  return out;
};
