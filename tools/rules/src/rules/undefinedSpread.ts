/**
 * An optional value that may be absent is dropped with the kernel's
 * `withoutUndefined`, never written out as `x === undefined ? {} : { x }`
 * (nor `x !== undefined ? { x } : {}`): the helper is typed for
 * `exactOptionalPropertyTypes` and reads as what it does.
 */
import { qualifiedName } from "../names.ts"
import type { Finding, Rule } from "../rule.ts"
import { field, nameOf, type SyntaxNode, walk } from "../syntax.ts"

const isUndefined = (node: SyntaxNode | undefined): boolean =>
  nameOf(node) === "undefined" && node?.type === "Identifier"

const propertyCount = (node: SyntaxNode | undefined): number | undefined =>
  node?.type === "ObjectExpression" ? (node.properties as ReadonlyArray<unknown>).length : undefined

const isEmptyObject = (node: SyntaxNode | undefined): boolean => propertyCount(node) === 0

/** One key: several keys present together when a value is (a last step's fields) are a group, not one optional value. */
const isOneKeyObject = (node: SyntaxNode | undefined): boolean => {
  const properties = node?.type === "ObjectExpression" ? (node.properties as ReadonlyArray<SyntaxNode>) : []
  return properties.length === 1 && properties[0]?.type === "Property"
}

const comparesWithUndefined = (test: SyntaxNode | undefined, operator: string): boolean =>
  test?.type === "BinaryExpression" &&
  (test.operator === operator || test.operator === operator.slice(0, 2)) &&
  (isUndefined(field(test, "left")) || isUndefined(field(test, "right")))

/** `x === undefined ? {} : { key: ... }` or `x !== undefined ? { key: ... } : {}`. */
const isUndefinedSpread = (node: SyntaxNode): boolean => {
  if (node.type !== "ConditionalExpression") return false
  const consequent = field(node, "consequent")
  const alternate = field(node, "alternate")
  const test = field(node, "test")
  return (
    (comparesWithUndefined(test, "===") && isEmptyObject(consequent) && isOneKeyObject(alternate)) ||
    (comparesWithUndefined(test, "!==") && isEmptyObject(alternate) && isOneKeyObject(consequent))
  )
}

export const undefinedSpread: Rule = {
  id: "without-undefined",
  says: "drop an absent optional value with withoutUndefined (@mizan/kernel), not `x === undefined ? {} : { x }`",
  ratchet: false,
  find: (file) => {
    const found: Array<Finding> = []
    walk(file.program, (node, ancestors) => {
      if (!isUndefinedSpread(node)) return
      const name = qualifiedName(node, ancestors)
      found.push({ file: file.path, name, line: file.lineOf(node.start), detail: "=== undefined ? {} : {...}" })
    })
    return found
  },
}
