import { describe, expect, it } from "vitest";
import { withIndexedRepository } from "./support.ts";

/**
 * A pasted log with its trace at the end: the frames and the error count however long the log before
 * them is. A report of 21,000 characters lost its whole trace to a cut at 20,000; and a log's own names
 * (loggers, `key=value` counters, service classes), a hundred and more, crowded a library frame's
 * function and path out of the query.
 */

const WORDS = ("account balance ledger invoice customer export archive upstream replica region tariff plan renewal reminder " +
  "notification gateway timeout retry session permission dashboard widget checksum bucket template currency statement " +
  "reconciliation schedule batch worker queue consumer producer partition offset snapshot backup restore migration").split(" ");
const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);

/** `n` log lines of a nightly job: timestamps, levels, threads, service classes, words and counters. */
function logLines(n: number): string[] {
  let seed = 7;
  const pick = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % k);
  const word = () => WORDS[pick(WORDS.length)]!;
  return Array.from({ length: n }, (_, i) => {
    const service = `${cap(word())}${cap(word())}${["Service", "Worker", "Client", "Handler"][pick(4)]}`;
    const words = Array.from({ length: 8 + pick(8) }, word).join(" ");
    return `2024-03-${10 + (i % 18)} ${String(i % 24).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}:07,${String(i % 1000).padStart(3, "0")} INFO [worker-${pick(16)}] acme.jobs.${service.toLowerCase()}: ${service} ${words} (id=${pick(100000)}, took=${pick(900)}ms, ${word()}Count=${pick(50)})`;
  });
}

const report = (lines: number, trace: string[]) =>
  ["Our nightly job fails after a while. Full log of the run below, the error is at the end.", "", "```", ...logLines(lines), ...trace, "```", "", "It started after the upgrade."].join("\n");

/** Java: the line the trace points at is line 14 of Abbreviations.java. */
const ABBREVIATIONS = `package org.acme.text;

/** Shortens strings for display. */
public final class Abbreviations {
    private Abbreviations() {
    }

    /** Abbreviates a string to a width, with a marker. */
    public static String abbreviate(final String str, final String marker, final int maxWidth) {
        if (str == null || str.isEmpty()) {
            return str;
        }
        if (maxWidth < marker.length() + 1) {
            throw new IllegalArgumentException(String.format("Minimum abbreviation width is %d", marker.length() + 1));
        }
        if (str.length() <= maxWidth) {
            return str;
        }
        return str.substring(0, maxWidth - marker.length()) + marker;
    }
}
`;

/** Python: the library the user's program runs, its conversion raising at line 9 of convert.py. */
const CONVERT = `"""Converting command-line values."""


def to_choice(value, choices):
    """Returns the choice a value names, ignoring case."""
    for choice in choices:
        if choice.lower() == value.lower():
            return choice
    raise BadChoice(f"{value!r} is not one of {', '.join(map(repr, choices))}.")


class BadChoice(ValueError):
    """A value that names none of the choices."""
`;
const RUNNER = `"""Running a command with its parameters."""
from toolkit.convert import to_choice


def run_command(command, values):
    """Converts each value of the command's parameters, then calls it."""
    converted = {}
    for name, param in command.params.items():
        converted[name] = to_choice(values[name], param.choices)
    return command.callback(**converted)
`;

/** Files that share some of the log's words: what the log alone would find. */
const DISTRACTORS: Record<string, string> = Object.fromEntries(
  ["ledger", "invoice", "customer", "reconciliation", "snapshot"].map((w) => [
    `src/main/java/org/acme/jobs/${cap(w)}Worker.java`,
    `package org.acme.jobs;\n\n/** Runs the ${w} batch of an account. */\npublic class ${cap(w)}Worker {\n    public int run${cap(w)}Batch(String account, int retries) {\n        return account.length() + retries;\n    }\n}\n`,
  ]),
);

describe("a long log with its trace at the end (e2e)", () => {
  const { ask } = withIndexedRepository("acme/toolkit", {
    "src/main/java/org/acme/text/Abbreviations.java": ABBREVIATIONS,
    "toolkit/convert.py": CONVERT,
    "toolkit/runner.py": RUNNER,
    "toolkit/__init__.py": '"""The toolkit."""\n',
    ...DISTRACTORS,
  });

  it("finds the traced Java method after 21,000 characters of log, and at 50,000", async () => {
    const trace = [
      "2024-03-19 09:59:59,999 ERROR [main] acme.jobs.reportformatter: failed to format the invoice summary",
      "java.lang.IllegalArgumentException: Minimum abbreviation width is 4",
      "\tat org.acme.text.Abbreviations.abbreviate(Abbreviations.java:14)",
      "\tat com.example.billing.ReportFormatter.summaryLine(ReportFormatter.java:88)",
      "\tat com.example.billing.InvoiceService.buildSummaries(InvoiceService.java:131)",
      "\tat java.base/java.lang.Thread.run(Thread.java:833)",
    ];
    for (const lines of [105, 245]) {
      const text = report(lines, trace);
      expect(text.length).toBeGreaterThan(lines === 105 ? 21_000 : 50_000);
      const message = await ask(text);
      expect(message.split("\n")[0], `${text.length} characters`).toMatch(/^Best match: \*\*`Abbreviations(?:\.abbreviate)?`\*\* \((?:class|method)\) in `src\/main\/java\/org\/acme\/text\/Abbreviations\.java`/);
      expect(message).toContain("line 14 of `src/main/java/org/acme/text/Abbreviations.java`");
    }
  });

  it("finds the function of a library frame of a Python traceback after a log full of names", async () => {
    const trace = [
      "Traceback (most recent call last):",
      '  File "/srv/nightly/app/cli.py", line 88, in <module>',
      "    main()",
      '  File "/srv/nightly/.venv/lib/python3.12/site-packages/toolkit/runner.py", line 9, in run_command',
      "    converted[name] = to_choice(values[name], param.choices)",
      '  File "/srv/nightly/.venv/lib/python3.12/site-packages/toolkit/convert.py", line 9, in to_choice',
      '    raise BadChoice(f"{value!r} is not one of {\', \'.join(map(repr, choices))}.")',
      "toolkit.convert.BadChoice: 'fast' is not one of 'low', 'high'.",
    ];
    // Under 20,000 characters: nothing is cut, but the log's names outnumber the frames.
    const text = report(60, trace);
    expect(text.length).toBeLessThan(20_000);
    const message = await ask(text);
    expect(message.split("\n")[0]).toMatch(/^Best match: \*\*`(?:to_choice|run_command)`\*\* \(function\) in `toolkit\/(?:convert|runner)\.py`/);
    expect(message).toMatch(/points into it: line 9 of `toolkit\/(?:convert|runner)\.py`/);
  });
});
