/**
 * Prints the admin GraphQL schema (sorted) to schema/admin.graphql, or checks it with --check.
 *   npx tsx scripts/print-admin-schema.ts [--check]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { lexicographicSortSchema, printSchema } from "../src/faces/graphql/graphql.ts";
import { schema } from "../src/faces/graphql/schema.ts";

export const ADMIN_SDL_PATH = fileURLToPath(new URL("../schema/admin.graphql", import.meta.url));
export const printAdminSchema = () => printSchema(lexicographicSortSchema(schema)) + "\n";

const sdl = printAdminSchema();
if (process.argv.includes("--check")) {
  const current = readFileSync(ADMIN_SDL_PATH, "utf8");
  if (current !== sdl) {
    process.stderr.write("schema/admin.graphql is out of date: run npx tsx scripts/print-admin-schema.ts\n");
    process.exit(1);
  }
  process.stdout.write("schema/admin.graphql is up to date\n");
} else {
  writeFileSync(ADMIN_SDL_PATH, sdl);
  process.stdout.write(`wrote ${ADMIN_SDL_PATH}\n`);
}
