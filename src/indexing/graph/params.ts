/**
 * The parameter list of a function or method definition as written: each parameter's name (with its
 * rest/keyword marker) and whether it has a default, across the graph's grammars (./extract.ts).
 */
import type { Node } from "web-tree-sitter";
import type { GraphParam } from "../../codeindex/port.ts";
import { boundFunctionOf, boundFunctionParameters } from "../bound-functions.ts";

const PARAMS_TEXT_MAX = 500;
const PARAMS_MAX = 64;

const collapse = (text: string): string => text.replace(/\s+/g, " ").trim();

const DECLARATORS = new Set(["lexical_declaration", "variable_declaration"]);

/** The node holding the parameters of a definition node, or null. */
function parametersNodeOf(def: Node): Node | null {
  const direct = def.childForFieldName("parameters");
  if (direct) return direct;
  // A name bound to a function literal (Go, Python, Rust, C++, Java; ../bound-functions.ts).
  const bound = boundFunctionOf(def);
  if (bound) return boundFunctionParameters(bound);
  if (DECLARATORS.has(def.type)) {
    for (const child of def.namedChildren) {
      if (child?.type !== "variable_declarator") continue;
      const value = child.childForFieldName("value");
      return value ? (value.childForFieldName("parameters") ?? value.childForFieldName("parameter")) : null;
    }
    return null;
  }
  // JS/TS class fields holding a function: `handle = async (event) => {}`.
  if (def.type === "field_definition" || def.type === "public_field_definition") {
    const value = def.childForFieldName("value");
    return value ? (value.childForFieldName("parameters") ?? value.childForFieldName("parameter")) : null;
  }
  // JS: `exports.f = function (a, b) {}`, `proto.f = (a) => {}`: the assigned function's parameters.
  if (def.type === "expression_statement") {
    const expression = def.namedChildren.find((n) => n?.type === "assignment_expression");
    const value = expression?.childForFieldName("right");
    return value ? (value.childForFieldName("parameters") ?? value.childForFieldName("parameter")) : null;
  }
  // C/C++: the parameters sit in the function declarator, under pointer/reference declarators.
  let declarator = def.childForFieldName("declarator");
  for (let depth = 0; declarator && depth < 8; depth++) {
    if (declarator.type === "function_declarator") return declarator.childForFieldName("parameters");
    declarator = declarator.childForFieldName("declarator") ?? declarator.namedChild(declarator.namedChildCount - 1);
  }
  return null;
}

/** The identifier a C/C++ declarator declares (through pointer, reference and array declarators). */
function declaredName(node: Node | null): string | null {
  let current = node;
  for (let depth = 0; current && depth < 8; depth++) {
    if (current.type === "identifier" || current.type.endsWith("_identifier")) return current.text;
    current = current.childForFieldName("declarator") ?? current.namedChild(current.namedChildCount - 1);
  }
  return null;
}

const param = (name: string, hasDefault = false): GraphParam => ({ name: collapse(name).slice(0, 200) || "_", hasDefault });

function paramsOfChild(child: Node, type: string): GraphParam[] {
  switch (type) {
    // Python
    case "default_parameter":
    case "typed_default_parameter":
      return [param(child.childForFieldName("name")?.text ?? child.text, true)];
    case "typed_parameter":
      return [param(child.namedChild(0)?.text ?? child.text)];
    case "keyword_separator":
      return [param("*")];
    case "positional_separator":
      return [param("/")];
    // JavaScript / TypeScript
    case "assignment_pattern":
      return [param(child.childForFieldName("left")?.text ?? child.text, true)];
    case "required_parameter":
      return [param(child.childForFieldName("pattern")?.text ?? child.text, child.childForFieldName("value") !== null)];
    case "optional_parameter":
      return [param(child.childForFieldName("pattern")?.text ?? child.text, true)];
    // Go: `a, b int` declares two
    case "parameter_declaration": {
      const names = child.childrenForFieldName("name").filter((n): n is Node => n !== null);
      if (names.length > 0) return names.map((n) => param(n.text));
      const declarator = child.childForFieldName("declarator");
      if (declarator) return [param(declaredName(declarator) ?? "_")];
      return child.text.trim() === "void" ? [] : [param("_")];
    }
    case "variadic_parameter_declaration":
      return [param(`...${child.childForFieldName("name")?.text ?? ""}`)];
    // Rust
    case "self_parameter":
      return [param(child.text)];
    case "parameter":
      return [param(child.childForFieldName("pattern")?.text ?? child.text)];
    // Java
    case "formal_parameter":
      return [param(child.childForFieldName("name")?.text ?? child.text)];
    case "spread_parameter": {
      const declarator = child.namedChildren.find((n) => n?.type === "variable_declarator");
      return [param(`...${declarator?.childForFieldName("name")?.text ?? ""}`)];
    }
    case "receiver_parameter":
      return [param("this")];
    // C++
    case "optional_parameter_declaration":
      return [param(declaredName(child.childForFieldName("declarator")) ?? "_", true)];
    case "variadic_parameter":
    case "...":
      return [param("...")];
    default: {
      const text = child.text; // one read of the text (each is a call into the parser for the node's end)
      return [param(text, /=/.test(text))];
    }
  }
}

/** Parameters of a function or method definition node, or null when it has no parameter list. */
export function parametersOf(def: Node): { params: GraphParam[]; text: string } | null {
  const node = parametersNodeOf(def);
  if (!node) return null;
  const params: GraphParam[] = [];
  if (node.type === "identifier") params.push(param(node.text)); // `x => x`
  else {
    // All children in one call into the parser (rather than one call per child index).
    const children = node.children;
    for (let i = 0, count = children.length; i < count && params.length < PARAMS_MAX; i++) {
      const child = children[i];
      if (!child) continue;
      const type = child.type;
      if (type === "...") params.push(param("..."));
      if (!child.isNamed || type.includes("comment") || type === "attribute_item" || type === "decorator") continue;
      params.push(...paramsOfChild(child, type));
    }
  }
  return { params, text: collapse(node.text).slice(0, PARAMS_TEXT_MAX) };
}
