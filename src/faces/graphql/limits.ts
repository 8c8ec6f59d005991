/**
 * Operation limits of the admin API, so that one request cannot make the server do unbounded work:
 *
 * - a document of at most MAX_TOKENS tokens (the parser stops there);
 * - at most MAX_ALIASES aliased fields, a selection at most MAX_DEPTH fields deep, and a cost of at
 *   most MAX_COST per operation: every field selected costs 1 (fragments counted where they are spread),
 *   a field that reads the whole log costs more (COSTLY);
 * - a mutation of ONCE_PER_REQUEST named at most once in a request (aliases included): a projection
 *   rebuild replays every organisation's records.
 *
 * The GraphiQL console's schema introspection (depth 15, about 230 fields) and the console's own
 * queries stay well inside. A refused request runs nothing: BAD_USER_INPUT naming the limit.
 */
import type { Plugin } from "graphql-yoga";
import {
  Kind,
  parse,
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationRule,
} from "./graphql.ts";
import { adminError } from "./errors.ts";

export const MAX_TOKENS = 5000;
export const MAX_ALIASES = 30;
export const MAX_DEPTH = 20;
export const MAX_COST = 2000;
/** Fields that replay or scan the whole event log, by their cost. */
export const COSTLY: Readonly<Record<string, number>> = { readModelAsOf: 200, entityHistory: 50 };
export const ONCE_PER_REQUEST: ReadonlySet<string> = new Set(["rebuildProjection"]);

type Measure = { aliases: number; depth: number; cost: number };

/** Aliases, depth and cost of a selection set, fragments expanded where spread (each fragment measured once). */
function measurer(document: DocumentNode) {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const memo = new Map<string, Measure>();
  const visiting = new Set<string>();
  const measure = (set: SelectionSetNode): Measure => {
    const total: Measure = { aliases: 0, depth: 0, cost: 0 };
    const add = (m: Measure, deeper: number) => {
      total.aliases += m.aliases;
      total.cost += m.cost;
      total.depth = Math.max(total.depth, m.depth + deeper);
    };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const inner = selection.selectionSet ? measure(selection.selectionSet) : { aliases: 0, depth: 0, cost: 0 };
        add({ aliases: inner.aliases + (selection.alias ? 1 : 0), depth: inner.depth, cost: inner.cost + (COSTLY[selection.name.value] ?? 1) }, 1);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        add(measure(selection.selectionSet), 0);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || visiting.has(name)) continue; // unknown and cyclic fragments: graphql's own rules refuse them
        if (!memo.has(name)) {
          visiting.add(name);
          memo.set(name, measure(fragment.selectionSet));
          visiting.delete(name);
        }
        add(memo.get(name)!, 0);
      }
    }
    return total;
  };
  return measure;
}

/** Refuses an operation over MAX_ALIASES, MAX_DEPTH or MAX_COST. */
const operationLimits: ValidationRule = function loupeOperationLimits(context): ASTVisitor {
  const measure = measurer(context.getDocument());
  return {
    OperationDefinition(node) {
      const m = measure(node.selectionSet);
      const name = node.name ? `operation ${node.name.value}` : "the operation";
      if (m.aliases > MAX_ALIASES) context.reportError(adminError("BAD_USER_INPUT", `${name} has ${m.aliases} aliases; at most ${MAX_ALIASES} are allowed in a request`));
      if (m.depth > MAX_DEPTH) context.reportError(adminError("BAD_USER_INPUT", `${name} is ${m.depth} fields deep; at most ${MAX_DEPTH} are allowed`));
      if (m.cost > MAX_COST) {
        context.reportError(adminError("BAD_USER_INPUT", `${name} costs ${m.cost} (each field 1, readModelAsOf ${COSTLY.readModelAsOf}, entityHistory ${COSTLY.entityHistory}); at most ${MAX_COST} is allowed: split it into several requests`));
      }
    },
  };
};

/** Refuses a request naming a ONCE_PER_REQUEST mutation more than once (aliases, fragments or operations). */
const oncePerRequest: ValidationRule = function loupeOncePerRequest(context): ASTVisitor {
  const seen = new Map<string, number>();
  return {
    Field(node) {
      const mutation = context.getSchema().getMutationType();
      if (!mutation || context.getParentType() !== mutation || !ONCE_PER_REQUEST.has(node.name.value)) return;
      const count = (seen.get(node.name.value) ?? 0) + 1;
      seen.set(node.name.value, count);
      if (count === 2) {
        context.reportError(adminError("BAD_USER_INPUT", `${node.name.value} may be asked for once per request (it was named again, e.g. under another alias); nothing was run`));
      }
    },
  };
};

/** The yoga plugin: the token limit on parsing, the rules above on validation. */
export const operationLimitsPlugin: Plugin = {
  onParse({ setParseFn }) {
    setParseFn((source, options) => parse(source, { ...options, maxTokens: MAX_TOKENS }));
  },
  onValidate({ addValidationRule }) {
    addValidationRule(operationLimits);
    addValidationRule(oncePerRequest);
  },
};
