/**
 * Calls in Go and Rust as the broken-callers finding reads them (./calls.ts), and what else a caller's
 * own parse says about who it calls: Go's import names (`p "example.com/m/pricing"`, or the path's
 * last element) and which Rust definitions are public (`pub`, or a method of a trait or trait impl).
 *
 * Go: `F(...)` is a bare call (the same package, or a dot-import), `x.F(...)` a member call (a package
 * qualifier or a value's method), generic `F[T](...)` is read through its type arguments, and `xs...`
 * passes a slice to a variadic parameter. Rust: `f(...)` bare, `x.f(...)` a method call, `a::b::f(...)`
 * and `Type::f(...)` paths (the path before `::f` is the receiver), turbofish `f::<T>(...)` read through.
 */
import type { Node } from "web-tree-sitter";
import type { CallSite } from "./call-site.ts";

const isComment = (n: Node) => n.type === "comment" || n.type.endsWith("_comment");
const squash = (text: string) => text.replace(/\s+/g, "");

type Callee = { name: string; receiver: string | null; form: CallSite["form"]; nameNode: Node };

function goCallee(fn: Node | null): Callee | null {
  if (!fn) return null;
  if (fn.type === "index_expression" || fn.type === "generic_type") return goCallee(fn.childForFieldName("operand") ?? fn.childForFieldName("type") ?? fn.namedChild(0));
  if (fn.type === "identifier") return { name: fn.text, receiver: null, form: "bare", nameNode: fn };
  if (fn.type === "selector_expression") {
    const field = fn.childForFieldName("field");
    const operand = fn.childForFieldName("operand");
    return field ? { name: field.text, receiver: operand ? squash(operand.text) : null, form: "member", nameNode: field } : null;
  }
  if (fn.type === "parenthesized_expression") return goCallee(fn.namedChild(0));
  return null;
}

function rustCallee(fn: Node | null): Callee | null {
  if (!fn) return null;
  if (fn.type === "generic_function") return rustCallee(fn.childForFieldName("function"));
  if (fn.type === "identifier") return { name: fn.text, receiver: null, form: "bare", nameNode: fn };
  if (fn.type === "field_expression") {
    const field = fn.childForFieldName("field");
    const value = fn.childForFieldName("value");
    return field && field.type === "field_identifier" ? { name: field.text, receiver: value ? squash(value.text) : null, form: "member", nameNode: field } : null;
  }
  if (fn.type === "scoped_identifier") {
    const name = fn.childForFieldName("name");
    const path = fn.childForFieldName("path");
    // `Type::<T>::f` and `<T as Trait>::f`: the type's name without its arguments.
    const written = path ? squash(path.text) : "";
    const qualified = /^<([\w:]+?)(?:as[\w:<>,]+)?>$/.exec(path ? path.text.replace(/\s+as\s+/, "as").replace(/\s+/g, "") : "");
    // `<X as Trait>::f` calls the trait's method.
    const viaTrait = path ? /^<[\s\S]+\sas\s+([\w:]+)\s*>$/.exec(path.text.trim()) : null;
    const receiver = viaTrait ? viaTrait[1]! : qualified ? qualified[1]! : written.replace(/<[^<>]*(?:<[^<>]*>[^<>]*)*>/g, "").replace(/::$/, "");
    return name ? { name: name.text, receiver: receiver || null, form: receiver ? "path" : "bare", nameNode: name } : null;
  }
  return null;
}

function read(root: Node, names: ReadonlySet<string> | null, lines: readonly string[], callee: (fn: Node | null) => Callee | null, splatType: string | null): CallSite[] {
  const out: CallSite[] = [];
  for (const call of root.descendantsOfType("call_expression")) {
    if (!call) continue;
    const target = callee(call.childForFieldName("function"));
    if (!target || (names && !names.has(target.name))) continue;
    let positional = 0;
    let splat = false;
    for (const a of call.childForFieldName("arguments")?.namedChildren ?? []) {
      if (!a || isComment(a) || a.type === "attribute_item") continue;
      if (a.type === splatType) splat = true;
      else positional++;
    }
    const row = target.nameNode.startPosition.row;
    out.push({ name: target.name, line: row + 1, endLine: call.endPosition.row + 1, form: target.form, receiver: target.receiver, positional, keywords: [], splat, keywordSplat: false, lineText: lines[row] ?? "" });
  }
  return out;
}

export const goCalls = (root: Node, names: ReadonlySet<string> | null, lines: readonly string[]): CallSite[] => read(root, names, lines, goCallee, "variadic_argument");

export const rustCalls = (root: Node, names: ReadonlySet<string> | null, lines: readonly string[]): CallSite[] => read(root, names, lines, rustCallee, null);

/** A Go file's imports: the name each binds (alias, else the path's last element without a `/vN` suffix; "." for a dot-import) and its path. */
export function goImportNames(root: Node): { name: string; path: string }[] {
  const out: { name: string; path: string }[] = [];
  for (const spec of root.descendantsOfType("import_spec")) {
    const pathNode = spec?.childForFieldName("path");
    if (!spec || !pathNode) continue;
    const path = pathNode.text.replace(/^["`]|["`]$/g, "");
    const alias = spec.childForFieldName("name")?.text;
    if (alias === "_") continue;
    const parts = path.split("/");
    const last = parts.length > 1 && /^v\d+$/.test(parts[parts.length - 1]!) ? parts[parts.length - 2]! : parts[parts.length - 1]!;
    out.push({ name: alias ?? last.replace(/\.v\d+$/, "").replace(/^go-/, "").replace(/[.-]go$/, "").replace(/[^\w]/g, ""), path });
  }
  return out;
}

/**
 * 1-based start lines of a Rust file's public functions and methods (`pub`, any `pub(...)`, or in a
 * trait or a trait's impl), of the methods of trait impls (their signature is the trait's) and of the
 * methods of traits.
 */
export function rustDefinitionLines(root: Node): { publicLines: Set<number>; traitImplLines: Map<number, string>; traitLines: Set<number> } {
  const publicLines = new Set<number>();
  /** Line -> the trait's name (without path or type arguments). */
  const traitImplLines = new Map<number, string>();
  const traitLines = new Set<number>();
  for (const fn of root.descendantsOfType(["function_item", "function_signature_item"])) {
    if (!fn) continue;
    const container = fn.parent?.type === "declaration_list" ? fn.parent.parent : null;
    const trait = container?.type === "impl_item" ? container.childForFieldName("trait") : null;
    const traitImpl = trait !== null && trait !== undefined;
    const line = fn.startPosition.row + 1;
    if (traitImpl) traitImplLines.set(line, trait.text.replace(/<[\s\S]*$/, "").split("::").pop()!.trim());
    if (container?.type === "trait_item") traitLines.add(line);
    if (traitImpl || container?.type === "trait_item" || fn.namedChildren.some((c) => c?.type === "visibility_modifier")) publicLines.add(line);
  }
  return { publicLines, traitImplLines, traitLines };
}
