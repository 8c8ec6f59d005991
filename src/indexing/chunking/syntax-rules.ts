import type { Node } from "web-tree-sitter";
import type { ChunkKind } from "../chunk.ts";
import { SCOPE_NAMESPACE_SHARE } from "./chunk-bounds.ts";
import { assignedFunction, assignedObject, declaredValue, FUNCTION_VALUE_TYPES, isAliasPair, isFunctionPair, isMethodObject } from "./js-objects.ts";
import { childrenOf, namedChildrenOf } from "./syntax-nodes.ts";
import { boundFunctionName, boundFunctionOf } from "../bound-functions.ts";
import { extensionReceiver } from "./kotlin-extensions.ts";

/**
 * Which syntax nodes define symbols, across the supported grammars. Node type names are shared by
 * many tree-sitter grammars (function_definition, class_declaration...), so one table covers them;
 * the few language-specific shapes (Go type specs, JS arrow-function constants, Rust impls, C
 * declarators, Swift/Kotlin `class_declaration` used for structs/enums/interfaces) are handled in
 * the helpers below.
 */
export type DefinitionType = { kind: ChunkKind; label: string };

const fn = (label = "function"): DefinitionType => ({ kind: "function", label });
const cls = (label = "class"): DefinitionType => ({ kind: "class", label });

export const DEFINITION_TYPES: Readonly<Record<string, DefinitionType>> = {
  // functions and methods ("function" becomes "method" inside a class-like parent)
  function_declaration: fn(),
  function_definition: fn(),
  function_item: fn(),
  function_signature: fn(),
  function_signature_item: fn(),
  generator_function_declaration: fn(),
  method_definition: fn("method"),
  // A JavaScript/TypeScript class field holding a function (`handle = async (e) => { ... }`), see classFieldFunction.
  field_definition: fn("method"),
  public_field_definition: fn("method"),
  method_declaration: fn("method"),
  method_signature: fn("method"),
  abstract_method_signature: fn("method"),
  method: fn("method"),
  singleton_method: fn("method"),
  constructor_declaration: fn("constructor"),
  destructor_declaration: fn("destructor"),
  operator_declaration: fn("operator"),
  secondary_constructor: fn("constructor"),
  init_declaration: fn("initializer"),
  protocol_function_declaration: fn("method"),
  local_function_definition_statement: fn(),
  function_definition_statement: fn(),
  macro_definition: fn("macro"),
  modifier_definition: fn("modifier"),
  // classes and other containers
  class_declaration: cls(),
  abstract_class_declaration: cls("abstract class"),
  class_definition: cls(),
  class_specifier: cls(),
  class: cls(),
  struct_specifier: cls("struct"),
  union_specifier: cls("union"),
  struct_item: cls("struct"),
  union_item: cls("union"),
  struct_declaration: cls("struct"),
  record_declaration: cls("record"),
  record_struct_declaration: cls("record struct"),
  object_declaration: cls("object"),
  object_definition: cls("object"),
  companion_object: cls("companion object"),
  impl_item: cls("impl"),
  contract_declaration: cls("contract"),
  class_interface: cls("interface"),
  class_implementation: cls("implementation"),
  interface_declaration: { kind: "interface", label: "interface" },
  trait_item: { kind: "interface", label: "trait" },
  trait_declaration: { kind: "interface", label: "trait" },
  trait_definition: { kind: "interface", label: "trait" },
  protocol_declaration: { kind: "interface", label: "protocol" },
  enum_declaration: { kind: "enum", label: "enum" },
  enum_item: { kind: "enum", label: "enum" },
  enum_specifier: { kind: "enum", label: "enum" },
  enum_definition: { kind: "enum", label: "enum" },
  type_alias_declaration: { kind: "type", label: "type" },
  type_item: { kind: "type", label: "type" },
  type_alias: { kind: "type", label: "type alias" },
  type_definition: { kind: "type", label: "typedef" },
  type_declaration: { kind: "type", label: "type" },
  mod_item: { kind: "module", label: "module" },
  namespace_definition: { kind: "module", label: "namespace" },
  namespace_declaration: { kind: "module", label: "namespace" },
  internal_module: { kind: "module", label: "namespace" },
  module: { kind: "module", label: "module" },
  // constants and variables at module/class level
  lexical_declaration: { kind: "variable", label: "constant" },
  variable_declaration: { kind: "variable", label: "variable" },
  const_item: { kind: "variable", label: "constant" },
  static_item: { kind: "variable", label: "static" },
  const_declaration: { kind: "variable", label: "constant" },
  var_declaration: { kind: "variable", label: "variable" },
};

/**
 * Nodes that wrap a definition; the wrapper's range is the definition's range. A C++ friend declaration
 * wraps the function it defines in the class body (`friend bool operator==(...) { ... }`), or declares
 * one defined elsewhere (no definition: not a wrapper then).
 */
export const WRAPPER_TYPES = new Set(["export_statement", "decorated_definition", "template_declaration", "ambient_declaration", "expression_statement", "friend_declaration"]);

/** Nodes that precede a definition and belong to it (doc comments, decorators, attributes). */
export const PREFIX_TYPES = new Set(["decorator", "attribute_item", "attribute_list", "annotation", "file_annotation"]);

export const BODY_TYPES = new Set([
  "class_body",
  "declaration_list",
  "field_declaration_list",
  "interface_body",
  "enum_body",
  "enum_class_body",
  "enum_member_declaration_list",
  "enum_variant_list",
  "enum_declaration_list",
  "template_body",
  "protocol_body",
  "body_statement",
  "statement_block",
  "block",
  "compound_statement",
  "function_body",
  "object_type",
  "contract_body",
]);

const NAME_TYPES = new Set([
  "identifier",
  "type_identifier",
  "simple_identifier",
  "constant",
  "word",
  "name",
  "property_identifier",
  "field_identifier",
  "variable",
  "dotted_name",
  "scoped_identifier",
  "user_type",
  "namespace_identifier",
  "qualified_identifier",
  "scope_resolution",
]);

const CLASS_KEYWORDS: Record<string, DefinitionType> = {
  struct: { kind: "class", label: "struct" },
  extension: { kind: "class", label: "extension" },
  actor: { kind: "class", label: "actor" },
  enum: { kind: "enum", label: "enum" },
  interface: { kind: "interface", label: "interface" },
  protocol: { kind: "interface", label: "protocol" },
};

const stripQuotes = (text: string): string => text.replace(/^["'`]|["'`]$/g, "");

/** A preprocessor conditional (C, C++, C#): its contents are code of the enclosing scope. */
export const CONDITIONAL_TYPES = /^preproc_(?:if|ifdef|elif|elifdef|else)$/;

/** A C++ anonymous namespace (`namespace { ... }`) that is most of its file: file-local definitions, named by nothing. */
const isScopeAnonymousNamespace = (node: Node): boolean =>
  node.type === "namespace_definition" &&
  node.childForFieldName("name") === null &&
  node.endPosition.row - node.startPosition.row + 1 >= SCOPE_NAMESPACE_SHARE * (node.tree.rootNode.endPosition.row + 1);

const isWrapper = (node: Node, throughErrors: boolean): boolean =>
  CONDITIONAL_TYPES.test(node.type) || isScopeAnonymousNamespace(node) || (throughErrors && node.type === "ERROR");

/** What a wrapper holds: a conditional's children (its directives too), an anonymous namespace's body and braces. */
const wrapped = (node: Node): Node[] => {
  if (node.type !== "namespace_definition") return childrenOf(node);
  const body = node.childForFieldName("body");
  // Nodes are new objects on every access: the body is told by its position.
  return [...childrenOf(node).filter((c) => !body || c.startIndex !== body.startIndex), ...(body ? childrenOf(body) : [])];
};

/**
 * Sibling nodes with every preprocessor conditional, and an anonymous namespace that is most of its file,
 * replaced by what it holds (directive lines, `namespace {` and its braces become statements of their
 * own): the functions inside an include guard (every header has one), a `#ifdef FEATURE ... #endif` or a
 * C++ file's anonymous namespace are definitions like any other, not one block cut into line windows.
 * With `throughErrors` (C and C++), a syntax error is read through the same way: the grammar cannot
 * place a conditional that splits a function's header (`#ifdef WIN32 int wmain(...) { ... #else int
 * main(...) { #endif`) and wraps the rest of the file in an error, inside which it still parses every
 * function whole; those are definitions, the error's loose pieces statements.
 */
export const withoutConditionals = (nodes: readonly Node[], throughErrors = false): Node[] =>
  nodes.some((n) => isWrapper(n, throughErrors))
    ? nodes.flatMap((node) => (isWrapper(node, throughErrors) ? withoutConditionals(wrapped(node), throughErrors) : [node]))
    : [...nodes];

/** The first named child whose type is in `types`, or null (children are read one at a time up to it). */
const firstNamedOfType = (node: Node, types: ReadonlySet<string>): Node | null => {
  for (let i = 0, count = node.namedChildCount; i < count; i++) {
    const child = node.namedChild(i);
    if (child && types.has(child.type)) return child;
  }
  return null;
};

const VARIABLE_DECLARATOR = new Set(["variable_declarator"]);

/** JavaScript's and TypeScript's class fields. */
const CLASS_FIELD_TYPES = new Set(["field_definition", "public_field_definition"]);
const FIELD_FUNCTION_TYPES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);

/**
 * The function a JavaScript/TypeScript class field holds (`handle = async (e) => { ... }`, `static parse =
 * function () { ... }`): such a field is a method of the class, named by the field. Null for a field of
 * any other value (`count = 0`) and for any other node.
 */
const classFieldFunction = (node: Node): Node | null => {
  if (!CLASS_FIELD_TYPES.has(node.type)) return null;
  const value = node.childForFieldName("value");
  return value && FIELD_FUNCTION_TYPES.has(value.type) ? value : null;
};

const TYPE_SPECS = new Set(["type_spec", "type_alias"]);

/** The body node of a definition (class body, function block...), or null. */
export const bodyOf = (node: Node): Node | null => {
  const type = node.type;
  if (type === "lexical_declaration" || type === "variable_declaration") {
    const value = declaredValue(node);
    if (value && isMethodObject(value)) return value;
    return value && FUNCTION_VALUE_TYPES.has(value.type) ? (value.childForFieldName("body") ?? null) : null;
  }
  if (type === "expression_statement") {
    const assigned = assignedFunction(node);
    if (assigned) return assigned.right.childForFieldName("body") ?? null;
    const object = assignedObject(node);
    if (object) return object.right;
  }
  if (CLASS_FIELD_TYPES.has(type)) return classFieldFunction(node)?.childForFieldName("body") ?? null;
  const bound = boundFunctionOf(node, type);
  if (bound) return bound.childForFieldName("body");
  if (type === "object") return node;
  if (type === "pair") return node.childForFieldName("value")?.childForFieldName("body") ?? null;
  const body = node.childForFieldName("body");
  if (body && body.type !== "expression_statement") return body;
  return firstNamedOfType(node, BODY_TYPES);
};

/** Python: an assignment statement at module or class level (`X = 1`, `x: int = 0`). */
const pythonAssignmentTarget = (node: Node): Node | null => {
  const first = node.namedChild(0);
  if (node.namedChildCount !== 1 || first?.type !== "assignment") return null;
  const left = first.childForFieldName("left");
  return left && left.type === "identifier" ? left : null;
};

/** The definition a (possibly wrapped) node stands for, or null for other statements. */
export const unwrapDefinition = (node: Node, nodeType: string = node.type): Node | null => {
  if (nodeType === "expression_statement") {
    if (pythonAssignmentTarget(node) || assignedFunction(node) || assignedObject(node)) return node;
    const inner = node.namedChild(0);
    return inner && inner.type === "internal_module" ? inner : null;
  }
  if (WRAPPER_TYPES.has(nodeType)) {
    const inner = node.childForFieldName("declaration") ?? node.childForFieldName("definition") ?? node.childForFieldName("value");
    const innerType = inner?.type;
    if (inner && innerType !== undefined && (DEFINITION_TYPES[innerType] || WRAPPER_TYPES.has(innerType))) return unwrapDefinition(inner, innerType);
    for (const child of namedChildrenOf(node)) if (DEFINITION_TYPES[child.type]) return child;
    if (nodeType === "export_statement" && inner && innerType !== undefined && (FUNCTION_VALUE_TYPES.has(innerType) || isMethodObject(inner))) return inner;
    return null;
  }
  if (nodeType === "pair") return isFunctionPair(node) || isAliasPair(node) ? node : null;
  if (nodeType === "field_declaration") return nestedTypeOf(node) ?? (boundFunctionOf(node, nodeType) ? node : null);
  // C++: `auto trim = [](...) { ... };` at namespace level (../bound-functions.ts).
  if (nodeType === "declaration") return boundFunctionOf(node, nodeType) ? node : null;
  if (CLASS_FIELD_TYPES.has(nodeType)) return classFieldFunction(node) ? node : null;
  const type = DEFINITION_TYPES[nodeType];
  if (!type) return null;
  // `const { x } = require("y")` is an import, not a definition.
  if (nodeType === "lexical_declaration" || nodeType === "variable_declaration") {
    const value = firstNamedOfType(node, VARIABLE_DECLARATOR)?.childForFieldName("value");
    if (value?.type === "call_expression" && value.childForFieldName("function")?.text === "require") return null;
  }
  // C/C++ `struct S;` forward declarations and `enum E x;` uses are not definitions.
  if ((nodeType.endsWith("_specifier") || nodeType === "mod_item") && !node.childForFieldName("body")) return null;
  return node;
};

/**
 * A C or C++ class, struct, union or enum defined inside another one (`class iterator { ... };` in a
 * class's body): the grammar reads it as a member declaration of that type. Only a named type with a
 * body declaring nothing else (`struct { int a; } pos;` declares a field).
 */
const nestedTypeOf = (node: Node): Node | null => {
  const type = node.childForFieldName("type");
  if (!type || !type.type.endsWith("_specifier") || node.childForFieldName("declarator")) return null;
  return DEFINITION_TYPES[type.type] && type.childForFieldName("name") && type.childForFieldName("body") ? type : null;
};

/** Kind and language word of a definition node. */
export const definitionTypeOf = (node: Node, nodeType: string = node.type): DefinitionType => {
  if (FUNCTION_VALUE_TYPES.has(nodeType)) return nodeType.includes("class") ? cls() : fn();
  if (nodeType === "object") return cls("object");
  if (nodeType === "pair") return isFunctionPair(node) ? fn() : { kind: "variable", label: "property" };
  if (boundFunctionOf(node, nodeType)) return fn();
  if (nodeType === "expression_statement") {
    const assigned = assignedFunction(node);
    if (assigned) return assigned.right.type.includes("class") ? cls() : fn();
    if (assignedObject(node)) return cls("object");
    return { kind: "variable", label: "variable" };
  }
  const base = DEFINITION_TYPES[nodeType] ?? { kind: "block", label: "block" };
  switch (nodeType) {
    case "type_declaration": {
      const spec = firstNamedOfType(node, TYPE_SPECS);
      const typeNode = spec?.childForFieldName("type");
      if (typeNode?.type === "struct_type") return { kind: "class", label: "struct" };
      if (typeNode?.type === "interface_type") return { kind: "interface", label: "interface" };
      return base;
    }
    case "lexical_declaration":
    case "variable_declaration": {
      const value = declaredValue(node);
      if (value && FUNCTION_VALUE_TYPES.has(value.type)) return value.type.includes("class") ? cls() : fn();
      if (isMethodObject(value)) return cls("object");
      return base;
    }
    case "class_declaration":
    case "object_declaration": {
      for (const child of childrenOf(node)) {
        if (child.isNamed && child.type !== "modifiers") break;
        const keyword = CLASS_KEYWORDS[child.type];
        if (keyword) return keyword;
      }
      return base;
    }
    default:
      return base;
  }
};

/**
 * The innermost declarator of a C/C++ declaration, where its name is. A C++ reference declarator (`T&
 * f()`, `T&& g()`) holds its inner declarator without the `declarator` field the pointer, function and
 * array declarators give it: its last named child; so does a parenthesised one (a C function returning a
 * function pointer: `int (*handler_for(int sig))(int)`). A conversion operator's is the `operator_cast` itself.
 */
const POSITIONAL_DECLARATORS = new Set(["reference_declarator", "parenthesized_declarator"]);
const descendDeclarator = (node: Node): Node => {
  let current = node;
  for (let depth = 0; depth < 8; depth++) {
    if (current.type === "operator_cast") break;
    const next = current.childForFieldName("declarator") ?? (POSITIONAL_DECLARATORS.has(current.type) ? current.namedChild(current.namedChildCount - 1) : null);
    if (!next || NAME_TYPES.has(current.type)) break;
    current = next;
  }
  return current;
};

/** The defined name, or null when the definition is anonymous. */
export const nameOf = (node: Node, nodeType: string = node.type): string | null => {
  switch (nodeType) {
    case "type_declaration":
    case "const_declaration":
    case "var_declaration": {
      const bound = boundFunctionName(node, nodeType);
      if (bound) return bound;
      const spec = namedChildrenOf(node).find((c) => c.type.endsWith("_spec") || c.type === "type_alias");
      const name = spec?.childForFieldName("name") ?? (spec ? firstNamedOfType(spec, NAME_TYPES) : null);
      if (name) return name.text;
      break;
    }
    case "lexical_declaration":
    case "variable_declaration": {
      const declarator = firstNamedOfType(node, VARIABLE_DECLARATOR);
      const name = declarator?.childForFieldName("name");
      return name ? name.text : null;
    }
    case "field_definition":
      return node.childForFieldName("property")?.text ?? null;
    case "field_declaration": {
      const bound = boundFunctionName(node, nodeType);
      if (bound) return bound;
      break;
    }
    case "impl_item": {
      const type = node.childForFieldName("type");
      return type ? type.text : null;
    }
    case "pair": {
      const key = node.childForFieldName("key");
      return key ? stripQuotes(key.text) : null;
    }
    case "expression_statement": {
      const object = assignedObject(node);
      if (object) {
        // `Foo.prototype = { ... }` holds Foo's methods; `module.exports = { ... }` is named as written.
        const property = object.left.type === "member_expression" ? object.left.childForFieldName("property")?.text : null;
        if (property === "prototype") return object.left.childForFieldName("object")?.text ?? null;
        return property && property !== "exports" ? property : object.left.text;
      }
      const assigned = assignedFunction(node);
      if (!assigned) return pythonAssignmentTarget(node)?.text ?? null;
      const property = assigned.left.type === "member_expression" ? assigned.left.childForFieldName("property")?.text : assigned.left.text;
      // `module.exports = function parse()` is named by the function.
      if (property === "exports") return assigned.right.childForFieldName("name")?.text ?? assigned.left.text;
      return property ?? null;
    }
  }
  const name = node.childForFieldName("name");
  if (name) return stripQuotes(name.text);
  const declarator = node.childForFieldName("declarator");
  if (declarator) {
    const leaf = descendDeclarator(declarator);
    // A C++ conversion operator (`operator bool() const`) is named by the type it converts to.
    if (leaf.type === "operator_cast") return `operator ${leaf.childForFieldName("type")?.text ?? ""}`.trim();
    return NAME_TYPES.has(leaf.type) || leaf.type.endsWith("_name") ? leaf.text : null;
  }
  // A Kotlin extension (`fun List<T>.names()`) is named after its receiver's dot, not by the receiver.
  const extension = extensionReceiver(node);
  if (extension) return extension.nextNamedSibling?.type === "simple_identifier" ? extension.nextNamedSibling.text : null;
  const fallback = firstNamedOfType(node, NAME_TYPES);
  return fallback ? fallback.text : null;
};

/** Go method receivers: `func (p *Parser) Parse()` belongs to `Parser`. */
export const receiverTypeOf = (node: Node, nodeType: string = node.type): string | null => {
  if (nodeType === "expression_statement") {
    // `Foo.prototype.bar = function` and `res.send = function` belong to `Foo` and `res`.
    const left = assignedFunction(node)?.left;
    const object = left?.type === "member_expression" ? left.childForFieldName("object")?.text.replace(/\.prototype$/, "") : null;
    return object && object !== "module" && object !== "exports" && /^[\w$.]{1,60}$/.test(object) ? object : null;
  }
  if (nodeType === "function_declaration") {
    // A Kotlin extension belongs to the type it extends (`fun List<T>.names()` to `List`).
    const extended = extensionReceiver(node);
    const type = extended ? /^[A-Za-z_]\w*/.exec(extended.text)?.[0] : undefined;
    return type ?? null;
  }
  if (nodeType !== "method_declaration") return null;
  const receiver = node.childForFieldName("receiver");
  if (!receiver) return null;
  const match = /([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*\)\s*$/.exec(receiver.text);
  return match?.[1] ?? null;
};

/** Rust `impl Display for Foo` describes itself better than its type name alone. */
export const implTraitOf = (node: Node, nodeType: string = node.type): string | null =>
  nodeType === "impl_item" ? (node.childForFieldName("trait")?.text ?? null) : null;
