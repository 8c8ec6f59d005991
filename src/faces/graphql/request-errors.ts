/**
 * Errors about the request itself, typed like the rest of the admin API (errors.ts). graphql-js checks
 * argument values written in the document while it validates the document (before anything runs), and
 * yoga labels every such error GRAPHQL_VALIDATION_FAILED; the same value sent as a variable, or refused
 * by an argument's own validation, is BAD_USER_INPUT. This plugin makes an argument's value (and a
 * required argument left out) BAD_USER_INPUT wherever it is written, naming the argument in
 * `details.issues`, and logs one warning per refused document. A document nested deeper than the
 * parser can take is refused before it is parsed (documentDepthGuard).
 */
import type { Plugin } from "graphql-yoga";
import {
  BREAK,
  GraphQLError,
  Kind,
  ProvidedRequiredArgumentsRule,
  ValuesOfCorrectTypeRule,
  validate,
  visit,
  type ASTNode,
  type DocumentNode,
  type GraphQLSchema,
} from "./graphql.ts";
import type { Logger } from "../../logging.ts";
import type { AdminContext } from "./builder.ts";

const keyOf = (error: GraphQLError) => `${error.message}\0${JSON.stringify(error.locations ?? [])}`;

/**
 * The argument a value node sits in, as a path: `limit`, `filter.since`, `prefix.1`; `$name` for a
 * variable's default value; null when the node is not in the document.
 */
function argumentPathOf(document: DocumentNode, target: ASTNode): string | null {
  let found: string | null = null;
  visit(document, {
    enter(node, _key, parent, _path, ancestors) {
      if (node !== target) return undefined;
      // `ancestors` stops above `parent`; arrays (a list's values, an object's fields) are left out.
      const chain = [...ancestors, parent, node].filter((a): a is ASTNode => a !== undefined && !Array.isArray(a));
      let start = -1;
      for (let i = chain.length - 1; i >= 0 && start === -1; i--) {
        if (chain[i]!.kind === Kind.ARGUMENT || chain[i]!.kind === Kind.VARIABLE_DEFINITION) start = i;
      }
      if (start === -1) return BREAK;
      const head = chain[start]!;
      const parts = [head.kind === Kind.ARGUMENT ? head.name.value : `$${head.kind === Kind.VARIABLE_DEFINITION ? head.variable.name.value : ""}`];
      for (let i = start + 1; i < chain.length; i++) {
        const step = chain[i]!;
        if (step.kind === Kind.OBJECT_FIELD) parts.push(step.name.value);
        if (step.kind === Kind.LIST && i + 1 < chain.length) parts.push(String(step.values.indexOf(chain[i + 1] as never)));
      }
      found = parts.join(".");
      return BREAK;
    },
  });
  return found;
}

/** The document's errors about argument values, by message and location, each with the argument it names. */
function argumentErrors(schema: GraphQLSchema, document: DocumentNode): Map<string, string> {
  const paths = new Map<string, string>();
  for (const error of validate(schema, document, [ValuesOfCorrectTypeRule])) {
    const node = error.nodes?.[0];
    paths.set(keyOf(error), (node && argumentPathOf(document, node)) ?? "(arguments)");
  }
  for (const error of validate(schema, document, [ProvidedRequiredArgumentsRule])) {
    paths.set(keyOf(error), /argument "([^"]+)"/.exec(error.message)?.[1] ?? "(arguments)");
  }
  return paths;
}

export function typedValidationErrors(logger: Logger): Plugin<AdminContext> {
  return {
    onValidate({ params }) {
      const { schema, documentAST } = params;
      return ({ valid, result, setResult }) => {
        if (valid) return;
        const errors = result as GraphQLError[];
        const paths = argumentErrors(schema, documentAST);
        const typed = errors.map((error) => {
          const path = paths.get(keyOf(error));
          if (path === undefined) return error;
          return new GraphQLError(`${path}: ${error.message}`, {
            nodes: error.nodes ?? null,
            extensions: { code: "BAD_USER_INPUT", details: { issues: [{ path, message: error.message }] } },
          });
        });
        setResult(typed);
        const codes = [...new Set(typed.map((e) => String(e.extensions?.code ?? "GRAPHQL_VALIDATION_FAILED")))];
        logger.warn({ codes, message: typed.map((e) => e.message).join("; ").slice(0, 1000) }, "admin API: bad input");
      };
    },
  };
}

/**
 * Nesting a document may have (selection sets, argument lists, list and object literals). graphql-js's
 * parser recurses per level: a literal nested a few thousand levels deep overflowed the stack (an
 * INTERNAL error). Deep JSON belongs in a variable, where the argument's own bound names it.
 */
export const MAX_DOCUMENT_DEPTH = 128;

/** Whether a GraphQL source nests `{`, `[` and `(` deeper than `limit` (strings and comments skipped). */
export function documentNestsDeeperThan(source: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === "#") {
      while (i < source.length && source[i] !== "\n" && source[i] !== "\r") i++;
    } else if (ch === '"' && source.startsWith('"""', i)) {
      let end = source.indexOf('"""', i + 3);
      while (end !== -1 && source[end - 1] === "\\") end = source.indexOf('"""', end + 3);
      i = end === -1 ? source.length : end + 2;
    } else if (ch === '"') {
      for (i++; i < source.length && source[i] !== '"' && source[i] !== "\n"; i++) if (source[i] === "\\") i++;
    } else if (ch === "{" || ch === "[" || ch === "(") {
      if (++depth > limit) return true;
    } else if (ch === "}" || ch === "]" || ch === ")") {
      depth--;
    }
  }
  return false;
}

export function documentDepthGuard(): Plugin<AdminContext> {
  return {
    onParse({ params, setParseFn }) {
      const source: unknown = params.source;
      const text = typeof source === "string" ? source : typeof (source as { body?: unknown })?.body === "string" ? (source as { body: string }).body : "";
      if (!documentNestsDeeperThan(text, MAX_DOCUMENT_DEPTH)) return;
      setParseFn(() => {
        throw new GraphQLError(
          `The document nests deeper than ${MAX_DOCUMENT_DEPTH} levels of braces, brackets and parentheses; pass deeply nested JSON as a variable`,
          { extensions: { code: "GRAPHQL_PARSE_FAILED" } },
        );
      });
    },
  };
}
