import process from "node:process";

export const out = (line = "") => process.stdout.write(line + "\n");
export const err = (line = "") => process.stderr.write(line + "\n");

const width = () => (process.stdout.isTTY ? process.stdout.columns || 120 : 160);

const clip = (s: string, max: number) => (max <= 1 ? "" : s.length > max ? s.slice(0, max - 1) + "…" : s);

/** A plain text table; the last column is clipped to the terminal width. */
export function table(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = rows.map((r) => r.map((c) => (c === null || c === undefined ? "" : String(c).replace(/\s+/g, " ").trim())));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? "").length)));
  const last = headers.length - 1;
  const before = widths.slice(0, last).reduce((a, b) => a + b + 2, 0);
  widths[last] = Math.max(headers[last]!.length, Math.min(widths[last]!, width() - before));
  const line = (r: string[]) =>
    r
      .map((c, i) => (i === last ? clip(c, widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

/**
 * Progress of a job on stderr: a redrawn bar when stderr is a terminal, otherwise plain lines printed
 * when something changes (at most every `intervalMs`, always for a change of status).
 */
export function createProgress(label: string, options: { intervalMs?: number; tty?: boolean } = {}) {
  const tty = options.tty ?? Boolean(process.stderr.isTTY);
  const intervalMs = options.intervalMs ?? 2000;
  let lastLine = "";
  let lastStatus = "";
  let lastAt = 0;
  let drawn = false;
  return {
    update(status: string, done: number, total: number) {
      const pct = total > 0 ? Math.min(100, Math.floor((done / total) * 100)) : 0;
      if (tty) {
        const barWidth = 30;
        const filled = total > 0 ? Math.round((Math.min(done, total) / total) * barWidth) : 0;
        const bar = "█".repeat(filled) + "░".repeat(barWidth - filled);
        const text = `${label} [${bar}] ${String(pct).padStart(3)}% ${done}/${total} files  ${status}`;
        process.stderr.write(`\r\x1b[2K${text}`);
        drawn = true;
        return;
      }
      const line = `${label}: ${status} ${done}/${total} files (${pct}%)`;
      const now = Date.now();
      if (line === lastLine) return;
      if (status === lastStatus && now - lastAt < intervalMs) return;
      process.stderr.write(line + "\n");
      lastLine = line;
      lastStatus = status;
      lastAt = now;
    },
    /** Ends the bar (a newline after the redrawn line). */
    done() {
      if (tty && drawn) process.stderr.write("\n");
      drawn = false;
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
