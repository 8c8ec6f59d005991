/**
 * Tree-sitter queries of the code graph, one per grammar (./extract.ts). A query runs inside the parser's
 * wasm module over the tree the chunker already made, so only the captured nodes cross into JavaScript.
 *
 * Captures:
 *   @call     a called or constructed name           @ref      a member or type name used
 *   @def      a type name being defined (not a use)  @jsx      a JSX element name (a call when capitalised)
 *   @import   an import spec (string or path node)   @from     a Python from-import statement
 *   @module   Rust `mod foo;`                        @use      a Rust `use` tree
 *   @include  C/C++ `#include "..."`                 @sysinclude  `#include <...>`
 *   @jimport  a Java import declaration              @package  a Java or Go package name
 * Captures starting with `_` only serve predicates.
 */
const PYTHON = `
(call function: (identifier) @call)
(call function: (attribute attribute: (identifier) @call))
(attribute attribute: (identifier) @ref)
(type (identifier) @ref)
(type (attribute attribute: (identifier) @ref))
(generic_type (identifier) @ref)
(class_definition superclasses: (argument_list (identifier) @ref))
(class_definition superclasses: (argument_list (attribute attribute: (identifier) @ref)))
(decorator (identifier) @call)
(decorator (attribute attribute: (identifier) @call))
(import_statement name: (dotted_name) @import)
(import_statement name: (aliased_import name: (dotted_name) @import))
(import_from_statement) @from
`;

const SCRIPT_COMMON = `
(call_expression function: (identifier) @call)
(call_expression function: (member_expression property: (property_identifier) @call))
(new_expression constructor: (identifier) @call)
(new_expression constructor: (member_expression property: (property_identifier) @call))
(member_expression property: (property_identifier) @ref)
(import_statement source: (string) @import)
(export_statement source: (string) @import)
(call_expression function: (identifier) @_require arguments: (arguments . (string) @import) (#eq? @_require "require"))
(call_expression function: (import) arguments: (arguments . (string) @import))
`;

const JSX = `
(jsx_opening_element name: (identifier) @jsx)
(jsx_self_closing_element name: (identifier) @jsx)
`;

const JAVASCRIPT = `${SCRIPT_COMMON}${JSX}
(class_heritage (identifier) @ref)
(class_heritage (member_expression property: (property_identifier) @ref))
`;

const TYPESCRIPT = `${SCRIPT_COMMON}
(type_identifier) @ref
(extends_clause value: (identifier) @ref)
(class_declaration name: (type_identifier) @def)
(abstract_class_declaration name: (type_identifier) @def)
(interface_declaration name: (type_identifier) @def)
(type_alias_declaration name: (type_identifier) @def)
(type_parameter name: (type_identifier) @def)
(import_require_clause source: (string) @import)
`;

const GO = `
(call_expression function: (identifier) @call)
(call_expression function: (selector_expression field: (field_identifier) @call))
(selector_expression field: (field_identifier) @ref)
(type_identifier) @ref
(type_spec name: (type_identifier) @def)
(import_spec path: (_) @import)
(package_clause (package_identifier) @package)
`;

const RUST = `
(call_expression function: (identifier) @call)
(call_expression function: (field_expression field: (field_identifier) @call))
(call_expression function: (scoped_identifier name: (identifier) @call))
(call_expression function: (scoped_identifier path: (identifier) @ref))
(call_expression function: (generic_function function: (identifier) @call))
(call_expression function: (generic_function function: (field_expression field: (field_identifier) @call)))
(call_expression function: (generic_function function: (scoped_identifier name: (identifier) @call)))
(macro_invocation macro: (identifier) @call)
(field_expression field: (field_identifier) @ref)
(type_identifier) @ref
(struct_item name: (type_identifier) @def)
(enum_item name: (type_identifier) @def)
(union_item name: (type_identifier) @def)
(trait_item name: (type_identifier) @def)
(type_item name: (type_identifier) @def)
(type_parameter name: (type_identifier) @def)
(mod_item name: (identifier) @module !body)
(use_declaration argument: (_) @use)
`;

const JAVA = `
(method_invocation name: (identifier) @call)
(object_creation_expression type: (type_identifier) @call)
(object_creation_expression type: (generic_type (type_identifier) @call))
(field_access field: (identifier) @ref)
(type_identifier) @ref
(type_parameter (type_identifier) @def)
(import_declaration) @jimport
(package_declaration (scoped_identifier) @package)
(package_declaration (identifier) @package)
`;

const C_COMMON = `
(call_expression function: (identifier) @call)
(call_expression function: (field_expression field: (field_identifier) @call))
(field_expression field: (field_identifier) @ref)
(type_identifier) @ref
(struct_specifier name: (type_identifier) @def body: (_))
(union_specifier name: (type_identifier) @def body: (_))
(enum_specifier name: (type_identifier) @def body: (_))
(type_definition declarator: (type_identifier) @def)
(preproc_include path: (string_literal) @include)
(preproc_include path: (system_lib_string) @sysinclude)
`;

const CPP = `${C_COMMON}
(call_expression function: (qualified_identifier name: (identifier) @call))
(call_expression function: (template_function name: (identifier) @call))
(new_expression type: (type_identifier) @call)
(class_specifier name: (type_identifier) @def body: (_))
(alias_declaration name: (type_identifier) @def)
(type_parameter_declaration (type_identifier) @def)
`;

/** Query source per language id (src/indexing/chunking/languages.ts); languages without one have no graph. */
export const GRAPH_QUERIES: Readonly<Record<string, string>> = {
  python: PYTHON,
  javascript: JAVASCRIPT,
  typescript: TYPESCRIPT,
  tsx: `${TYPESCRIPT}${JSX}`,
  go: GO,
  rust: RUST,
  java: JAVA,
  c: C_COMMON,
  cpp: CPP,
};

/** Type names that are the language's own (Go's predeclared types are plain type identifiers). */
export const BUILTIN_TYPES: Readonly<Record<string, ReadonlySet<string>>> = {
  go: new Set([
    "any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32", "float64", "int", "int8", "int16", "int32", "int64",
    "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
  ]),
};
