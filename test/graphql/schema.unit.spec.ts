import { readFileSync } from "node:fs";
import { lexicographicSortSchema, printSchema } from "../../src/faces/graphql/graphql.ts";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/faces/graphql/schema.ts";

describe("admin GraphQL schema", () => {
  it("matches schema/admin.graphql (run `npx tsx scripts/print-admin-schema.ts` after changing it)", () => {
    const printed = printSchema(lexicographicSortSchema(schema)) + "\n";
    const committed = readFileSync(new URL("../../schema/admin.graphql", import.meta.url), "utf8");
    expect(printed).toBe(committed);
  });

  it("exposes no field that could carry a secret or a key hash", () => {
    const sdl = printSchema(schema);
    expect(sdl).not.toMatch(/\bkeyHash\b|\bhash\s*:/i);
  });
});
