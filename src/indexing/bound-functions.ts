/**
 * A name bound to a function literal at module or class level is a function definition, in every
 * language that writes functions that way: Go `var handler = func(w, r) { ... }`, Python `normalize =
 * lambda s: ...`, Rust `static HANDLER: fn(i32) -> i32 = |x| { ... };`, C++ `auto trim = [](const
 * std::string& s) { ... };` at namespace level, Java `static final Comparator<T> BY_SIZE = (a, b) -> {
 * ... };` as a field. JavaScript's and TypeScript's forms (`const f = () => {}`, class fields) are read
 * by ./chunking/js-objects.ts and ./chunking/syntax-rules.ts. A declaration of several names stays a
 * statement. Read by the chunker (./chunking/syntax-rules.ts) and the code graph (./graph/params.ts),
 * which imports nothing from the chunker.
 */
import type { Node } from "web-tree-sitter";

/** The function literals of the grammars, by the declaration node that can bind one. */
const LITERALS: Readonly<Record<string, ReadonlySet<string>>> = {
  var_declaration: new Set(["func_literal"]), // Go
  expression_statement: new Set(["lambda"]), // Python
  static_item: new Set(["closure_expression"]), // Rust
  const_item: new Set(["closure_expression"]), // Rust
  declaration: new Set(["lambda_expression"]), // C++
  field_declaration: new Set(["lambda_expression"]), // Java
};

/** The only named child of `node` of `type`, or null when there are none or several. */
const onlyOfType = (node: Node, type: string): Node | null => {
  const found = node.namedChildren.filter((c): c is Node => c !== null && c.type === type);
  return found.length === 1 ? found[0]! : null;
};

/** Go: the one `var_spec` of a declaration (`var x = ...` or `var ( x = ... )`) naming one variable. */
const goSpec = (node: Node): Node | null => {
  const list = onlyOfType(node, "var_spec_list");
  const spec = list ? onlyOfType(list, "var_spec") : onlyOfType(node, "var_spec");
  return spec && spec.childrenForFieldName("name").length === 1 ? spec : null;
};

/** The value a one-name declaration gives, in the node's grammar, or null. */
const boundValue = (node: Node, nodeType: string): Node | null => {
  switch (nodeType) {
    case "var_declaration": {
      const values = goSpec(node)?.childForFieldName("value");
      return values && values.namedChildCount === 1 ? values.namedChild(0) : null;
    }
    case "expression_statement": {
      const assignment = node.namedChildCount === 1 ? node.namedChild(0) : null;
      if (assignment?.type !== "assignment" || assignment.childForFieldName("left")?.type !== "identifier") return null;
      return assignment.childForFieldName("right");
    }
    case "static_item":
    case "const_item":
      return node.childForFieldName("value");
    case "declaration":
    case "field_declaration": {
      const declarators = node.childrenForFieldName("declarator");
      const declarator = declarators.length === 1 ? declarators[0] : null;
      return declarator?.type === "init_declarator" || declarator?.type === "variable_declarator" ? declarator.childForFieldName("value") : null;
    }
    default:
      return null;
  }
};

/** The function literal a declaration binds to its one name, or null (for any other node too). */
export const boundFunctionOf = (node: Node, nodeType: string = node.type): Node | null => {
  const literals = LITERALS[nodeType];
  if (!literals) return null;
  const value = boundValue(node, nodeType);
  return value && literals.has(value.type) ? value : null;
};

/** The name a declaration binding a function literal gives it (Go's grouped `var ( x = func ... )`, Java's field). */
export const boundFunctionName = (node: Node, nodeType: string = node.type): string | null => {
  if (!boundFunctionOf(node, nodeType)) return null;
  if (nodeType === "var_declaration") return goSpec(node)?.childForFieldName("name")?.text ?? null;
  if (nodeType === "field_declaration") return node.childForFieldName("declarator")?.childForFieldName("name")?.text ?? null;
  return null;
};

/** The parameter list of a bound function literal (a C++ lambda's sits in its declarator). */
export const boundFunctionParameters = (literal: Node): Node | null =>
  literal.childForFieldName("parameters") ?? literal.childForFieldName("declarator")?.childForFieldName("parameters") ?? null;
