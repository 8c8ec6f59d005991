/**
 * The CLI's tables and progress (src/cli/output.ts) against cli-table3 and cli-progress, on what the
 * CLI tests pin: a plain table whose last column is clipped to the width (160 columns when stdout is
 * not a terminal), and, off a terminal, one progress line per change (at once for a change of status).
 */
import { Writable } from "node:stream";
import Table from "cli-table3";
import cliProgress from "cli-progress";
import { createProgress, table } from "../../src/cli/output.ts";

const TABLES: { headers: string[]; rows: string[][] }[] = [
  { headers: ["REPOSITORY", "STATUS", "FILES", "COMMIT"], rows: [["github:main:pallets/flask", "completed", "240/240", "4003f4a1b2c3"], ["local:main:widget-shop-1a2b3c4d", "processing", "12/41", "-"]] },
  {
    headers: ["FILE", "LINES", "SUMMARY"],
    rows: [
      ["src/flask/app.py", "120-188", "Flask.make_response: converts the return value of a view function into a response object, ".repeat(3)],
      ["src/flask/ctx.py", "1-40", "AppContext"],
    ],
  },
];

/** cli-table3 set up to draw what `table` draws: no borders, two spaces between columns, a dashed rule. */
function viaCliTable3(headers: string[], rows: string[][]): string {
  const none = { top: "", "top-mid": "", "top-left": "", "top-right": "", bottom: "", "bottom-mid": "", "bottom-left": "", "bottom-right": "", left: "", "left-mid": "", mid: "", "mid-mid": "", right: "", "right-mid": "", middle: "  " };
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const before = widths.slice(0, -1).reduce((a, b) => a + b + 2, 0);
  widths[widths.length - 1] = Math.max(headers.at(-1)!.length, Math.min(widths.at(-1)!, 160 - before));
  const t = new Table({ chars: none, style: { head: [], border: [], "padding-left": 0, "padding-right": 0 }, colWidths: widths, truncate: "…" });
  t.push(headers, widths.map((w) => "-".repeat(w)), ...rows);
  return t
    .toString()
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n");
}

function captureStderr(fn: () => void): string {
  const write = process.stderr.write.bind(process.stderr);
  let text = "";
  process.stderr.write = ((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    fn();
  } finally {
    process.stderr.write = write;
  }
  return text;
}

/** Three updates in quick succession, the status changing each time (cloning, processing, completed). */
const UPDATES: [string, number, number][] = [
  ["cloning", 0, 41],
  ["processing", 12, 41],
  ["completed", 41, 41],
];

async function progressLines() {
  const own = captureStderr(() => {
    const p = createProgress("local:main:widget-shop", { tty: false });
    for (const [status, done, total] of UPDATES) p.update(status, done, total);
    p.done();
  });
  let library = "";
  const stream = Object.assign(
    new Writable({
      write(chunk, _enc, cb) {
        library += String(chunk);
        cb();
      },
    }),
    { isTTY: false },
  );
  const bar = new cliProgress.SingleBar({ stream, noTTYOutput: true, notTTYSchedule: 2000, format: "{label}: {status} {value}/{total} files ({percentage}%)" });
  bar.start(41, 0, { label: "local:main:widget-shop", status: "cloning" });
  for (const [status, done] of UPDATES) bar.update(done, { status });
  await new Promise((r) => setTimeout(r, 50));
  bar.stop();
  return { own: own.trim().split("\n"), library: library.trim().split("\n") };
}

export async function benchOutput() {
  const tables = TABLES.map(({ headers, rows }) => {
    const own = table(headers, rows);
    const library = viaCliTable3(headers, rows);
    return { same: own === library, own: own.split("\n"), "cli-table3": library.split("\n") };
  });
  const progress = await progressLines();
  return {
    tables,
    progressOffTerminal: { updates: UPDATES.map(([s, d, t]) => `${s} ${d}/${t}`), createProgress: progress.own, "cli-progress (noTTYOutput)": progress.library },
  };
}
