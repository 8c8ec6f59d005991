#!/usr/bin/env node
// Loupe's command line on Node: registers tsx (TypeScript loader) and runs src/cli/main.ts.
// On Deno run the source directly: `deno run -A src/cli/main.ts <command> ...`.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
