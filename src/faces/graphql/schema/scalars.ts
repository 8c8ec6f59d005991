import { Kind, valueFromASTUntyped } from "../graphql.ts";
import { builder } from "../builder.ts";
import { ScalarInputError } from "../errors.ts";

/** Any JSON value (event data, read-model keys and values). */
builder.scalarType("JSON", {
  description: "Any JSON value.",
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

const toIso = (value: unknown) => {
  if (typeof value !== "string" || Number.isNaN(Date.parse(value))) {
    throw new ScalarInputError("DateTime must be an ISO 8601 date-time string");
  }
  return new Date(Date.parse(value)).toISOString();
};

builder.scalarType("DateTime", {
  description: "An ISO 8601 date-time (UTC), e.g. 2025-01-31T12:00:00.000Z.",
  serialize: (value) => String(value),
  parseValue: toIso,
  parseLiteral: (ast) => toIso(ast.kind === Kind.STRING ? ast.value : null),
});

const toPosition = (value: unknown) => {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
    throw new ScalarInputError("Position must be a non-negative integer");
  }
  return n;
};

builder.scalarType("Position", {
  description:
    "A global position in the event log: a non-negative integer that can exceed 32 bits (EventStoreDB commit positions), serialised as a JSON number.",
  serialize: (value) => value,
  parseValue: toPosition,
  parseLiteral: (ast) => toPosition(ast.kind === Kind.INT || ast.kind === Kind.STRING ? ast.value : null),
});
