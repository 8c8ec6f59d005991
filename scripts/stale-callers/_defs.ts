import { execFileSync } from "node:child_process";
import { parseForCalls } from "../../src/review/graph/calls.ts";
const [dir, rev, path, ...names] = process.argv.slice(2);
const text = execFileSync("git", ["show", `${rev}:${path}`], { cwd: dir }).toString();
const p = await parseForCalls(path!, text, names.length ? new Set(names) : null);
for (const d of p!.graph.definitions) if (!names.length || names.includes(d.name)) console.log("def", d.name, d.kind, d.parent, d.startLine, d.paramsText);
for (const c of p!.calls) console.log("call", JSON.stringify(c));
