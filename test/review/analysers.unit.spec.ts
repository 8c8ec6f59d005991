import { describe, expect, it } from "vitest";
import { ANALYSERS, analyserContext, runAnalysers } from "../../src/review/analysers/index.ts";
import { entropy, maskSecret } from "../../src/review/analysers/secrets.ts";
import type { DiffFile } from "../../src/review/diff.ts";
import { added, diffOf } from "./helpers.ts";

const run = (name: keyof typeof ANALYSERS, file: DiffFile) => ANALYSERS[name]!(file, analyserContext(file));

describe("secrets", () => {
  const AWS = "AKIA" + "Q3EGRD7PLMZ4XK2N";
  const GHP = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5";

  it("flags AWS key ids, GitHub/GitLab/Slack tokens and private keys, masking the secret", () => {
    const f = added("src/config.ts", [
      `const id = "${AWS}";`,
      `const gh = "${GHP}";`,
      `token: "glpat-` + `Ab12Cd34Ef56Gh78Ij90"`,
      `SLACK = "xoxb-` + `123456789012-abcdefABCDEF"`,
      "-----BEGIN RSA PRIVATE KEY-----",
      "const harmless = 1;",
    ]);
    const found = run("secrets", f);
    expect(found.map((x) => [x.ruleId, x.lineStart, x.severity])).toEqual([
      ["secrets/aws-access-key-id", 1, "critical"],
      ["secrets/github-token", 2, "critical"],
      ["secrets/gitlab-token", 3, "critical"],
      ["secrets/slack-token", 4, "critical"],
      ["secrets/private-key", 5, "critical"],
    ]);
    for (const x of found) {
      expect(x.message).not.toContain(AWS);
      expect(x.message).not.toContain(GHP);
    }
    expect(found[0]!.message).toContain("AKIA");
    expect(found[0]!.message).toContain("20 characters");
  });

  it("flags generic high-entropy credentials but not placeholders, env lookups or low-entropy values", () => {
    const f = added("app/settings.py", [
      'DB_PASSWORD = "x9$Kq2!vLm8#Tz"',
      'api_key = "sk_9f8a7b6c5d4e3f2a1b0c"',
      'password = "changeme123"',
      'password = os.environ["DB_PASSWORD"]',
      'AWS_KEY = "AKIAIOSFODNN7EXAMPLE"',
      'password_label = "Xy7#kLm9pQ2z"',
      'secret = "aaaaaaaaaaaa"',
      'password = "${DB_PASSWORD}"',
    ]);
    const found = run("secrets", f);
    expect(found.map((x) => [x.ruleId, x.lineStart])).toEqual([
      ["secrets/hardcoded-credential", 1],
      ["secrets/hardcoded-credential", 2],
    ]);
    expect(found[0]!.message).not.toContain("x9$Kq2!vLm8#Tz");
  });

  it("masks and measures entropy", () => {
    expect(maskSecret("abcdefghijklmnopqrst")).toBe("abcd******** (20 characters)");
    expect(entropy("aaaa")).toBe(0);
    expect(entropy("abcd")).toBe(2);
  });
});

describe("conflict markers", () => {
  it("flags all three markers", () => {
    const f = added("a.ts", ["<<<<<<< HEAD", "const a = 1;", "=======", "const a = 2;", ">>>>>>> feature"]);
    expect(run("conflictMarkers", f).map((x) => x.lineStart)).toEqual([1, 3, 5]);
  });
  it("leaves a markdown setext underline alone", () => {
    expect(run("conflictMarkers", added("README.md", ["Title", "======="]))).toEqual([]);
  });
});

describe("debug leftovers", () => {
  it("flags console.log with a delete suggestion when the line is a whole statement", () => {
    const f = diffOf("src/app.ts", ["function f() {", "  return 1;", "}"], ["function f() {", "  console.log(value);", "  return 1;", "}"]);
    const [x] = run("debugLeftovers", f);
    expect(x).toMatchObject({ ruleId: "debug-leftover", lineStart: 2, lineEnd: 2, severity: "low", suggestion: "" });
  });

  it("offers no suggestion when removing would break a braceless if", () => {
    const f = diffOf("src/app.ts", ["if (x)", "  go();"], ["if (x)", "  console.log(x);", "  go();"]);
    const [x] = run("debugLeftovers", f);
    expect(x?.lineStart).toBe(2);
    expect(x?.suggestion).toBeUndefined();
  });

  it("flags debugger, breakpoint(), pdb, dbg!, var_dump/dd and binding.pry", () => {
    expect(run("debugLeftovers", added("a.js", ["debugger;"]))[0]).toMatchObject({ severity: "medium", suggestion: "" });
    expect(run("debugLeftovers", added("a.py", ["x = 1", "breakpoint()"]))[0]).toMatchObject({ lineStart: 2, suggestion: "" });
    expect(run("debugLeftovers", added("a.py", ["import pdb; pdb.set_trace()"]))).toHaveLength(1);
    expect(run("debugLeftovers", added("src/lib.rs", ["let y = dbg!(x);"]))[0]).toMatchObject({ severity: "medium" });
    // A new library file that prints once: likely a leftover (./leftover-output.unit.spec.ts).
    expect(run("debugLeftovers", added("src/lib.rs", ["    println!(\"{}\", x);"]))[0]).toMatchObject({ severity: "medium" });
    expect(run("debugLeftovers", added("a.php", ["var_dump($x);", "dd($y);"]))).toHaveLength(2);
    expect(run("debugLeftovers", added("a.rb", ["binding.pry", "byebug"]))).toHaveLength(2);
  });

  it("does not flag the only statement of a Python block for deletion", () => {
    const f = diffOf("a.py", ["if x:", "    go()"], ["if x:", "    print(x)", "    go()"]);
    const [x] = run("debugLeftovers", f);
    expect(x?.lineStart).toBe(2);
    expect(x?.suggestion).toBeUndefined();
  });

  it("stays quiet in tests, scripts, strings, comments, methods and Go", () => {
    expect(run("debugLeftovers", added("src/app.test.ts", ["console.log(x);"]))).toEqual([]);
    expect(run("debugLeftovers", added("scripts/build.ts", ["console.log(x);"]))).toEqual([]);
    expect(run("debugLeftovers", added("src/a.ts", ['const s = "console.log(x)";', "// console.log(x);", "logger.console.log(x);"]))).toEqual([]);
    expect(run("debugLeftovers", added("a.py", ["self.print(x)", "# print(x)"]))).toEqual([]);
    expect(run("debugLeftovers", added("main.go", ['fmt.Println("debug")']))).toEqual([]);
    expect(run("debugLeftovers", added("a.php", ["$o->add($x);"]))).toEqual([]);
    expect(run("debugLeftovers", added("src/main.rs", ['println!("usage");']))).toEqual([]);
  });
});

describe("risky JS/TS", () => {
  it("flags eval, new Function and dynamic innerHTML", () => {
    const found = run("riskyJs", added("a.ts", ["eval(code);", "const f = new Function('a', body);", "el.innerHTML = userInput;", 'el.innerHTML = "<b>static</b>";']));
    expect(found.map((x) => [x.ruleId, x.lineStart, x.severity])).toEqual([
      ["js/eval", 1, "high"],
      ["js/new-function", 2, "high"],
      ["js/html-injection", 3, "medium"],
    ]);
  });

  it("flags loose equality with a === suggestion, but not == null or strings", () => {
    const found = run("riskyJs", added("a.js", ["if (a == b) {", "if (a == null) {", "if (x === y && p !== q) {", 'const pad = "ab==";', "if (a != 1) {"]));
    expect(found.map((x) => [x.lineStart, x.suggestion])).toEqual([
      [1, "if (a === b) {"],
      [5, "if (a !== 1) {"],
    ]);
    expect(found[0]!.severity).toBe("low");
  });

  it("ignores eval as a method and in comments", () => {
    expect(run("riskyJs", added("a.ts", ["page.eval(x);", "// eval(x) is bad"]))).toEqual([]);
  });
});

describe("risky Python", () => {
  it("flags eval/exec, pickle, yaml.load (with safe_load suggestion), shell=True, bare except, mutable defaults", () => {
    const found = run(
      "riskyPython",
      added("svc/a.py", [
        "result = eval(expr)",
        "obj = pickle.loads(blob)",
        "cfg = yaml.load(fh)",
        "subprocess.run(cmd, shell=True)",
        "try:",
        "    go()",
        "except:",
        "    pass",
        "def add(item, items=[]):",
      ]),
    );
    expect(found.map((x) => [x.ruleId, x.lineStart])).toEqual([
      ["python/eval", 1],
      ["python/unsafe-deserialization", 2],
      ["python/yaml-load", 3],
      ["python/subprocess-shell", 4],
      ["python/bare-except", 7],
      ["python/mutable-default", 9],
    ]);
    expect(found[2]!.suggestion).toBe("cfg = yaml.safe_load(fh)");
    expect(found[4]!.suggestion).toBe("except Exception:");
  });

  it("accepts the safe forms", () => {
    expect(
      run("riskyPython", added("a.py", ["cfg = yaml.load(fh, Loader=yaml.SafeLoader)", "x = ast.literal_eval(s)", "except ValueError:", "def f(a, b=None, c=()):", "subprocess.run(['ls'])"])),
    ).toEqual([]);
  });
});

describe("SQL built from strings", () => {
  it("flags f-strings, concatenation, % formatting and template literals passed to execute/query", () => {
    const py = run("sqlInjection", added("db.py", ['cur.execute(f"SELECT * FROM users WHERE id = {uid}")', 'cur.execute("SELECT * FROM t WHERE n = \'%s\'" % name)']));
    expect(py.map((x) => x.lineStart)).toEqual([1, 2]);
    const js = run("sqlInjection", added("db.ts", ["await db.query(`SELECT * FROM users WHERE id = ${id}`);", 'conn.query("DELETE FROM t WHERE id = " + id);']));
    expect(js.map((x) => [x.ruleId, x.severity])).toEqual([
      ["sql-injection", "high"],
      ["sql-injection", "high"],
    ]);
  });
  it("accepts parameterised queries and tagged templates", () => {
    expect(run("sqlInjection", added("db.py", ['cur.execute("SELECT * FROM users WHERE id = %s", (uid,))']))).toEqual([]);
    expect(run("sqlInjection", added("db.ts", ["await sql`SELECT * FROM users WHERE id = ${id}`;", "db.query('SELECT * FROM t WHERE id = $1', [id]);"]))).toEqual([]);
  });
});

describe("Rust unwrap and Java", () => {
  it("flags .unwrap() in library code but not in tests or #[cfg(test)] modules", () => {
    expect(run("rustUnwrap", added("src/lib.rs", ["let v = s.parse::<u32>().unwrap();"]))[0]).toMatchObject({ ruleId: "rust/unwrap", severity: "low" });
    expect(run("rustUnwrap", added("tests/it.rs", ["let v = s.parse::<u32>().unwrap();"]))).toEqual([]);
    expect(run("rustUnwrap", added("src/lib.rs", ["#[cfg(test)]", "mod tests {", "    fn t() { x.unwrap(); }", "}"]))).toEqual([]);
  });
  it("flags catching Throwable and printStackTrace", () => {
    const found = run("java", added("src/main/java/A.java", ["} catch (Throwable t) {", "  e.printStackTrace();", "} catch (IOException e) {"]));
    expect(found.map((x) => [x.ruleId, x.lineStart])).toEqual([
      ["java/catch-throwable", 1],
      ["java/print-stack-trace", 2],
    ]);
  });
  it("catching Throwable is left alone in test code and when the block throws again (jackson-core 5f7bd4c5's expected-failure interceptor)", () => {
    const interceptor = ["try {", "    invocation.proceed();", "} catch (Throwable t) {", "    // do-nothing, we do expect an exception", "    return;", "}"];
    expect(run("java", added("src/test/java/com/x/testutil/FailureInterceptor.java", interceptor))).toEqual([]);
    expect(run("java", added("src/main/java/com/x/Runner.java", interceptor)).map((x) => [x.ruleId, x.lineStart])).toEqual([["java/catch-throwable", 3]]);
    const rethrow = ["try {", "    run();", "} catch (Throwable t) {", "    if (lock != null) {", "        lock.release();", "    }", "    throw t;", "}"];
    expect(run("java", added("src/main/java/com/x/Runner.java", rethrow))).toEqual([]);
    const wrap = ["} catch (final Throwable t) { throw new IllegalStateException(\"run failed\", t); }"];
    expect(run("java", added("src/main/java/com/x/Runner.java", wrap))).toEqual([]);
    // A throw after the block has closed is not the block's.
    const after = ["} catch (Throwable t) {", "    log(t);", "}", "throw new IllegalStateException();"];
    expect(run("java", added("src/main/java/com/x/Runner.java", after)).map((x) => x.lineStart)).toEqual([1]);
    expect(run("java", added("src/main/kotlin/Runner.kt", ["} catch (t: Throwable) {", "    cleanup()", "    throw t", "}"]))).toEqual([]);
  });
});

describe("TODO comments", () => {
  it("reports TODO/FIXME in comments as info, not in strings or identifiers", () => {
    const found = run("todo", added("a.ts", ["// TODO: handle retries", "const s = 'TODO';", "x(); /* FIXME later */", "const todoList = [];"]));
    expect(found.map((x) => [x.lineStart, x.severity])).toEqual([
      [1, "info"],
      [3, "info"],
    ]);
  });
});

describe("runAnalysers", () => {
  it("returns only findings on added lines, sorted, and skips vendored, binary and deleted files", () => {
    const f = diffOf("src/a.ts", ["eval(old);", "keep();"], ["eval(old);", "keep();", "eval(fresh);"]);
    const found = runAnalysers(f);
    expect(found.map((x) => [x.ruleId, x.lineStart])).toEqual([["js/eval", 3]]);
    expect(runAnalysers(added("node_modules/x/index.js", ["eval(a);"]))).toEqual([]);
    expect(runAnalysers(added("dist/app.min.js", ["eval(a);"]))).toEqual([]);
  });
});

describe("noise found on real history (bench-review-noise)", () => {
  it("eval/exec of code the author compiled (a startup script run on purpose) is not flagged; eval of data still is", () => {
    expect(run("riskyPython", added("flask/cli.py", ["        eval(compile(f.read(), startup, 'exec'), ctx)"]))).toEqual([]);
    expect(run("riskyPython", added("flask/cli.py", ["        exec(compile(source, path, 'exec'), ns)"]))).toEqual([]);
    expect(run("riskyPython", added("app/calc.py", ["result = eval(request.args['expr'])"])).map((f) => f.ruleId)).toEqual(["python/eval"]);
  });

  it("dbg! in examples and scripts is their output, as println! is; in library code it is a leftover", () => {
    expect(run("debugLeftovers", added("tracing-macros/examples/factorial.rs", ["    dbg!(factorial(4));"]))).toEqual([]);
    expect(run("debugLeftovers", added("src/lib.rs", ["let y = dbg!(x);"])).map((f) => f.ruleId)).toHaveLength(1);
  });

  it("a test suite folder (flask/testsuite/) is test code: no secret-name finding there", () => {
    expect(run("secrets", added("flask/testsuite/config.py", ["    SECRET_KEY = 'devkey'"]))).toEqual([]);
    expect(run("secrets", added("flask/config.py", ["    SECRET_KEY = 'devkey-1234'"]))).not.toEqual([]);
  });
});
