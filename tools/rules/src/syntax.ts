/**
 * A source file's syntax tree, read by rolldown's parser (oxc's, the one vitest
 * already runs on): ESTree nodes with TypeScript's, each with its `start` and
 * `end` offsets. The rules read nodes loosely, by their `type` and fields.
 */
import { parseAst } from "rolldown/parseAst"

export interface SyntaxNode {
  readonly type: string
  readonly start: number
  readonly end: number
  readonly [field: string]: unknown
}

export interface ParsedFile {
  /** The file's path from the repository's root, with `/` separators. */
  readonly path: string
  readonly text: string
  readonly program: SyntaxNode
  /** The 1-based line of a source offset. */
  readonly lineOf: (offset: number) => number
}

const isNode = (value: unknown): value is SyntaxNode =>
  typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string"

const lineStarts = (text: string): Array<number> => {
  const starts = [0]
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1)
  return starts
}

export const parseFile = (path: string, text: string): ParsedFile => {
  const starts = lineStarts(text)
  const lineOf = (offset: number): number => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if ((starts[middle] ?? 0) <= offset) low = middle
      else high = middle - 1
    }
    return low + 1
  }
  const lang = path.endsWith(".tsx") ? "tsx" : /\.m?js$/.test(path) ? "js" : "ts"
  const program = parseAst(text, { lang, sourceType: "module" }, path) as unknown
  if (!isNode(program)) throw new Error(`${path}: the parser answered no program`)
  return { path, text, program, lineOf }
}

/** The node's children, in source order: every field holding a node or a list of nodes. */
export const childrenOf = (node: SyntaxNode): Array<SyntaxNode> =>
  Object.entries(node)
    .filter(([field]) => field !== "parent")
    .flatMap(([, value]) => (Array.isArray(value) ? value.filter(isNode) : isNode(value) ? [value] : []))

/** Calls `visit` on every node under `root` with its ancestors, nearest last. */
export const walk = (
  root: SyntaxNode,
  visit: (node: SyntaxNode, ancestors: ReadonlyArray<SyntaxNode>) => void,
): void => {
  const ancestors: Array<SyntaxNode> = []
  const go = (node: SyntaxNode): void => {
    visit(node, ancestors)
    ancestors.push(node)
    for (const child of childrenOf(node)) go(child)
    ancestors.pop()
  }
  go(root)
}

/** A field of a node read as a node, or undefined. */
export const field = (node: SyntaxNode | undefined, name: string): SyntaxNode | undefined => {
  const value = node?.[name]
  return isNode(value) ? value : undefined
}

/** The name an identifier, a string literal key or a private name spells, or undefined. */
export const nameOf = (node: SyntaxNode | undefined): string | undefined => {
  if (node === undefined) return undefined
  if (node.type === "Identifier" || node.type === "PrivateIdentifier") return node.name as string
  if (node.type === "Literal" && typeof node.value === "string") return node.value
  return undefined
}

/** Whether `node` is the member access `object.property` with those two names (`Effect.gen`). */
export const isMember = (node: SyntaxNode | undefined, object: string, property: string): boolean =>
  node?.type === "MemberExpression" &&
  nameOf(field(node, "object")) === object &&
  nameOf(field(node, "property")) === property

export const functionTypes: ReadonlySet<string> = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
])
