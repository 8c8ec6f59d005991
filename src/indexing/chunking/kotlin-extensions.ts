/** Kotlin's extension functions, which its grammar writes without fields (read by ./syntax-rules.ts). */
import type { Node } from "web-tree-sitter";

/**
 * The receiver type of a Kotlin extension function (`fun TypeName.toVariableName()`: a type, then `.`,
 * then the name), or null. The grammar gives the declaration no fields, so the type comes first among
 * its named children.
 */
export const extensionReceiver = (node: Node): Node | null => {
  if (node.type !== "function_declaration") return null;
  for (let i = 0, count = node.childCount; i < count - 1; i++) {
    const child = node.child(i);
    if (!child || !child.isNamed) continue;
    if (child.type === "simple_identifier" || child.type === "function_value_parameters") return null;
    if ((child.type === "user_type" || child.type === "nullable_type") && node.child(i + 1)?.type === ".") return child;
  }
  return null;
};
