/**
 * The name a finding is listed under: the names of the declarations around a
 * node, outermost first (`makeSealer.seal`), so that a ratchet's list stays
 * put when lines move. An anonymous function (a generator handed to
 * `Effect.gen`, a callback) goes by the name of what holds it.
 */
import { field, nameOf, type SyntaxNode } from "./syntax.ts"

/** The name a node gives what it declares, or undefined when it declares nothing by name. */
const declaredName = (node: SyntaxNode): string | undefined => {
  switch (node.type) {
    case "FunctionDeclaration":
    case "FunctionExpression":
    case "ClassDeclaration":
    case "ClassExpression":
    case "TSModuleDeclaration":
      return nameOf(field(node, "id"))
    case "VariableDeclarator":
      return nameOf(field(node, "id"))
    case "Property":
    case "MethodDefinition":
    case "PropertyDefinition":
    case "TSPropertySignature":
    case "TSMethodSignature":
      return node.computed === true ? undefined : nameOf(field(node, "key"))
    default:
      return undefined
  }
}

export const topLevel = "(top level)"

/** The dotted name of `node` among its ancestors (nearest last): every declaration's name from the outermost in. */
export const qualifiedName = (node: SyntaxNode, ancestors: ReadonlyArray<SyntaxNode>): string => {
  const names = [...ancestors, node].map(declaredName).filter((name) => name !== undefined)
  return names.length === 0 ? topLevel : names.join(".")
}
