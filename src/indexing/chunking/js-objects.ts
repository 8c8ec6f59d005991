/**
 * JavaScript and TypeScript definitions written as values (./syntax-rules.ts): functions and classes
 * assigned to names or properties, and objects of methods (CommonJS modules, prototypes, option objects).
 */
import type { Node } from "web-tree-sitter";
import { isCommentType, namedChildrenOf } from "./syntax-nodes.ts";

export const FUNCTION_VALUE_TYPES = new Set(["arrow_function", "function_expression", "function", "generator_function", "class", "class_expression"]);

/** The first declarator of a `const`/`let`/`var` declaration. */
const firstDeclarator = (node: Node): Node | null => namedChildrenOf(node).find((c) => c.type === "variable_declarator") ?? null;

/**
 * The value a declaration or assignment gives, through chained assignments: `const proto =
 * module.exports = { ... }` and `exports = module.exports = { ... }` give the object.
 */
const assignedValue = (node: Node | null | undefined): Node | null => {
  let value = node ?? null;
  for (let depth = 0; value?.type === "assignment_expression" && depth < 4; depth++) value = value.childForFieldName("right");
  return value;
};

/** The value of a JavaScript/TypeScript declaration's first declarator (through chained assignments). */
export const declaredValue = (node: Node): Node | null => assignedValue(firstDeclarator(node)?.childForFieldName("value"));

/**
 * JavaScript/TypeScript: a function or class assigned to a name or property (`res.send = function`,
 * `Foo.prototype.bar = (x) => ...`, `exports.parse = function`), the way much JavaScript defines methods.
 */
export const assignedFunction = (node: Node): { left: Node; right: Node } | null => assignmentOf(node, (right) => FUNCTION_VALUE_TYPES.has(right.type));

/** An expression statement that only assigns a value `isValue` accepts to a name or property. */
const assignmentOf = (node: Node, isValue: (right: Node) => boolean): { left: Node; right: Node } | null => {
  const inner = node.namedChild(0);
  if (node.namedChildCount !== 1 || inner?.type !== "assignment_expression") return null;
  const left = inner.childForFieldName("left");
  const right = assignedValue(inner.childForFieldName("right"));
  if (!left || !right || !isValue(right)) return null;
  return left.type === "member_expression" || left.type === "identifier" ? { left, right } : null;
};

/**
 * JavaScript/TypeScript: an object literal whose members are functions at least half (`get body() {}`,
 * `parse(text) {}`, `send: function () {}`, `close: () => {}`): a container of methods, the way
 * CommonJS modules (`module.exports = { ... }`), prototypes and option objects define them. Without it a
 * large one was cut into line windows and its methods were no definitions.
 */
export const isMethodObject = (node: Node | null | undefined): boolean => {
  if (!node || node.type !== "object") return false;
  let members = 0;
  let functions = 0;
  for (const c of namedChildrenOf(node)) {
    if (isCommentType(c.type)) continue;
    members++;
    if (c.type === "method_definition" || isFunctionPair(c)) functions++;
  }
  // Data that carries a helper or two (a locale's months, formats and its `ordinal` function) stays data.
  return functions > 0 && functions * 2 >= members;
};

/** `key: function () {}` or `key: () => {}` inside an object literal. */
export const isFunctionPair = (node: Node): boolean => {
  if (node.type !== "pair") return false;
  const value = node.childForFieldName("value");
  return value !== null && FUNCTION_VALUE_TYPES.has(value.type);
};

/**
 * `key: name` or `key: lib.name` among an object of methods' members (`assert: httpAssert`): a member
 * defined by what it refers to, read and called like the methods beside it (pairs are members only of
 * such objects; a data object stays one constant).
 */
export const isAliasPair = (node: Node): boolean => {
  if (node.type !== "pair" || node.childForFieldName("key")?.type !== "property_identifier") return false;
  const type = node.childForFieldName("value")?.type;
  return type === "identifier" || type === "member_expression";
};

/** `module.exports = { ... }`, `Foo.prototype = { ... }`, `api = { ... }` with methods in the object. */
export const assignedObject = (node: Node): { left: Node; right: Node } | null => assignmentOf(node, isMethodObject);
