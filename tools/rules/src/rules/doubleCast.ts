/**
 * No `as unknown as T` in `src/`: it tells the compiler to believe anything.
 * A value of unknown shape is decoded with its schema, narrowed with a guard,
 * or typed where it is made.
 */
import { qualifiedName } from "../names.ts"
import type { Rule } from "../rule.ts"
import { field, type SyntaxNode, walk } from "../syntax.ts"

const isCastTo = (node: SyntaxNode | undefined, keyword: string): boolean =>
  (node?.type === "TSAsExpression" || node?.type === "TSTypeAssertion") &&
  field(node, "typeAnnotation")?.type === keyword

export const doubleCast: Rule = {
  id: "double-cast",
  says: "no `as unknown as` in src/: decode with a schema, narrow with a guard, or type the value where it is made",
  ratchet: true,
  find: (file) => {
    const found: Array<{ file: string; name: string; line: number; detail: string }> = []
    walk(file.program, (node, ancestors) => {
      if (!(node.type === "TSAsExpression" || node.type === "TSTypeAssertion")) return
      if (!isCastTo(field(node, "expression"), "TSUnknownKeyword")) return
      found.push({
        file: file.path,
        name: qualifiedName(node, ancestors),
        line: file.lineOf(node.start),
        detail: "as unknown as",
      })
    })
    return found
  },
}
