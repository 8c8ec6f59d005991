#!/usr/bin/env node
// Loupe's MCP stdio bridge on Node: registers tsx (TypeScript loader) and runs src/cli/mcp-stdio.ts.
// Usage: loupe-mcp --url http://localhost:8080 --key <API key>   (or env LOUPE_URL, LOUPE_API_KEY)
// On Deno run the source directly: `deno run -A src/cli/mcp-stdio.ts --url ... --key ...`.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/mcp-stdio.ts");
