/**
 * An effectful function is `Effect.fn("Scope.name")(function* ...)` (or
 * `Effect.fnUntraced` where a span per call would cost), not a function that
 * returns `Effect.gen(...)`: the first is a span in traces and a frame in stack
 * traces for free. Found: an arrow whose body is `Effect.gen(...)` (or
 * `Effect.gen(...).pipe(...)`), and a function whose body is only
 * `return Effect.gen(...)`; either converts as it stands, the pipe's steps
 * becoming `Effect.fn`'s further arguments. Only a function with a name of
 * its own is read (declared, or the value of a constant, a property or a
 * method): a callback handed to `Effect.flatMap` and the like is no
 * function a trace or a stack would name.
 */
import { qualifiedName } from "../names.ts"
import type { Finding, Rule } from "../rule.ts"
import { field, functionTypes, isMember, type SyntaxNode, walk } from "../syntax.ts"

const isEffectGen = (node: SyntaxNode | undefined): boolean =>
  node?.type === "CallExpression" && isMember(field(node, "callee"), "Effect", "gen")

const isWithSpan = (node: SyntaxNode): boolean =>
  node.type === "CallExpression" && isMember(field(node, "callee"), "Effect", "withSpan")

/**
 * `Effect.gen(...)`, or `Effect.gen(...).pipe(...)` whose steps name no span:
 * a pipe through `Effect.withSpan(name, { attributes })` is a span already,
 * with attributes from the arguments that `Effect.fn`'s own span lacks.
 */
const isGenExpression = (node: SyntaxNode | undefined): boolean => {
  if (isEffectGen(node)) return true
  const callee = field(node, "callee")
  return (
    node?.type === "CallExpression" &&
    callee?.type === "MemberExpression" &&
    (field(callee, "property")?.name as unknown) === "pipe" &&
    isEffectGen(field(callee, "object")) &&
    !(node.arguments as ReadonlyArray<SyntaxNode>).some(isWithSpan)
  )
}

/** The expression a function's body answers when that is all the body does. */
const onlyResult = (fn: SyntaxNode): SyntaxNode | undefined => {
  const body = field(fn, "body")
  if (body?.type !== "BlockStatement") return body
  const statements = body.body as ReadonlyArray<SyntaxNode>
  const only = statements.length === 1 ? statements[0] : undefined
  return only?.type === "ReturnStatement" ? field(only, "argument") : undefined
}

/** Whether the function is named where it is written: declared, or the value of a constant, a property or a method. */
const isNamedFunction = (fn: SyntaxNode, parent: SyntaxNode | undefined): boolean => {
  if (fn.type === "FunctionDeclaration") return true
  switch (parent?.type) {
    case "VariableDeclarator":
    case "PropertyDefinition":
      return field(parent, "init") === fn || field(parent, "value") === fn
    case "Property":
    case "MethodDefinition":
      return field(parent, "value") === fn
    default:
      return false
  }
}

export const effectFn: Rule = {
  id: "effect-fn",
  says: 'an effectful function is Effect.fn("Scope.name")(function* ...) or Effect.fnUntraced(...), not one returning Effect.gen',
  ratchet: true,
  find: (file) => {
    const found: Array<Finding> = []
    walk(file.program, (node, ancestors) => {
      if (!functionTypes.has(node.type) || node.generator === true || !isGenExpression(onlyResult(node))) return
      if (!isNamedFunction(node, ancestors.at(-1))) return
      const name = qualifiedName(node, ancestors)
      found.push({ file: file.path, name, line: file.lineOf(node.start), detail: "returns Effect.gen" })
    })
    return found
  },
}
