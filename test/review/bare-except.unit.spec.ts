import { describe, expect, it } from "vitest";
import { ANALYSERS, analyserContext } from "../../src/review/analysers/index.ts";
import type { DiffFile } from "../../src/review/diff.ts";
import { added } from "./helpers.ts";

const bareExcepts = (file: DiffFile) =>
  ANALYSERS.riskyPython!(file, analyserContext(file))
    .filter((f) => f.ruleId === "python/bare-except")
    .map((f) => ({ line: f.lineStart, severity: f.severity, suggestion: f.suggestion }));

describe("python/bare-except", () => {
  it("reports a bare except that swallows everything, suggesting except Exception", () => {
    const f = added("app/io.py", ["def read(p):", "    try:", "        return open(p).read()", "    except:", "        return None"]);
    expect(bareExcepts(f)).toEqual([{ line: 4, severity: "medium", suggestion: "    except Exception:" }]);
  });

  it("leaves a bare except alone when its body re-raises", () => {
    const f = added("app/io.py", [
      "def read(p):",
      "    try:",
      "        return open(p).read()",
      "    except:",
      "        log.exception('read failed')",
      "        raise",
      "",
      "def other():",
      "    try:",
      "        work()",
      "    except:",
      "        cleanup()",
      "        raise  # keep the traceback",
    ]);
    expect(bareExcepts(f)).toEqual([]);
  });

  it("leaves a bare except alone when the line says # noqa", () => {
    const f = added("app/io.py", ["try:", "    work()", "except:  # noqa: E722", "    pass", "try:", "    work()", "except:  # noqa", "    pass"]);
    expect(bareExcepts(f)).toEqual([]);
  });

  it("after an existing except Exception clause, does not suggest a second (dead) except Exception", () => {
    const f = added("app/run.py", [
      "def run():",
      "    try:",
      "        work()",
      "    except Exception as error:",
      "        record(error)",
      "    except:",
      "        record_interrupt()",
    ]);
    const found = bareExcepts(f);
    expect(found).toEqual([{ line: 6, severity: "low", suggestion: "    except BaseException:" }]);
    expect(found[0]!.suggestion).not.toContain("except Exception");
  });

  it("an except Exception of another try does not count", () => {
    const f = added("app/run.py", [
      "try:",
      "    a()",
      "except Exception:",
      "    pass",
      "try:",
      "    b()",
      "except:",
      "    pass",
    ]);
    expect(bareExcepts(f)).toEqual([{ line: 7, severity: "medium", suggestion: "except Exception:" }]);
  });
});
