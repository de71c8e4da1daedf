/**
 * Shapes many operations share, as components the operations `$ref`
 * instead of repeating: money, timestamps and the order objects (the same
 * objects the notifications carry). A compiled subschema that has exactly a
 * component's shape becomes a reference to it, so no operation can drift
 * from the component: the shape is still compiled from the wire schema.
 *
 * Requests and answers differ on purpose. An answer's amount is always a
 * JSON number (the service writes numbers); a request's amount may be its
 * decimal text too, as the PHP SDK sends it. A request is closed
 * (`additionalProperties: false`, see closed.ts) and has no `[]` for `{}`.
 */
import { Forgotten, MoneyFromWire, Timestamp } from "@mizan/kernel"
import { ForeignMoneyFromWire, notificationOrderKeys, notificationOrders } from "@mizan/protocol"
import type { Schema } from "effect"
import { compileSchemas } from "./compile.ts"
import { canonicalText, componentRef, isJsonObject, type Json, mapSchema, withoutBranches } from "./tree.ts"

/** Which way a schema travels: what a merchant sends, or what the service answers (and notifies). */
export type Side = "request" | "answer"

interface SharedShape {
  readonly name: string
  readonly schema: Schema.Top
  readonly description: string
}

/** An order's component, by its notification key: `acquireOrder` -> `AcquireOrder`. */
export const orderComponentName = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1)

/** Smallest first: an order's money is already a reference when the order's shape is compared. */
const sharedShapes: ReadonlyArray<SharedShape> = [
  {
    name: "Forgotten",
    schema: Forgotten,
    description:
      "What a field that held a person's data answers once the service has forgotten that person at their request: the order stays, the value is gone (docs/api.md#forgotten-personal-data).",
  },
  {
    name: "Money",
    schema: MoneyFromWire,
    description:
      "An amount of dirhams: at most 12 digits before the point and 2 after, no sign and no exponent (0.10 is 10 fils). The currency is always AED.",
  },
  {
    name: "ForeignMoney",
    schema: ForeignMoneyFromWire,
    description:
      "An amount in the currency a payout is received in (AED, USD, ...): at most 12 digits before the point and 2 after.",
  },
  {
    name: "Timestamp",
    schema: Timestamp,
    description: "An instant, as milliseconds since 1970-01-01T00:00:00Z.",
  },
  ...notificationOrderKeys.map((key) => ({
    name: orderComponentName(key),
    schema: notificationOrders[key] as Schema.Top,
    description: `The ${key} object: the order as the query operation answers it and as its notification carries it under \`${key}\`.`,
  })),
]

const isNumberOrText = (node: Json): boolean =>
  Array.isArray(node.anyOf) &&
  node.anyOf.length === 2 &&
  canonicalText(node.anyOf) === canonicalText([{ type: "number" }, { type: "string" }])

/** The decimal text a request may send for an amount (the PHP SDK's habit): digits, at most 2 after the point. */
const decimalTextPattern = "^[0-9]{1,12}(\\.[0-9]{1,2})?$"

/** The PHP SDK writes `[]` for an empty object; the service reads it, but a merchant writing a request should send `{}`. */
const isEmptyListBranch = (branch: unknown): boolean =>
  isJsonObject(branch) && branch.type === "array" && branch.items === false

/** What only one side says: answers write numbers; requests take the decimal text too, and never `[]` for `{}`. */
const sideShape = (schema: Json, side: Side): Json =>
  mapSchema(schema, (node) => {
    if (isNumberOrText(node))
      return side === "answer"
        ? { type: "number" }
        : { anyOf: [{ type: "number" }, { type: "string", pattern: decimalTextPattern }] }
    return side === "request" ? withoutBranches(node, isEmptyListBranch) : node
  })

/** Request-side components carry a prefix where their shape differs from the answer's (`RequestMoney`). */
const nameOn = (name: string, side: Side, differs: boolean): string =>
  side === "request" && differs ? `Request${name}` : name

export interface SharedComponents {
  /** The schema on its side, with every shared shape in it replaced by a reference. */
  readonly withRefs: (schema: Json, side: Side) => Json
  /** Every shared component by name, with the side it is on ("both" when the sides agree). */
  readonly schemas: Readonly<Record<string, { readonly schema: Json; readonly side: Side | "both" }>>
}

export const sharedComponents = (): SharedComponents => {
  const compiled = compileSchemas(sharedShapes.map((shape) => shape.schema)).schemas
  const byShape: Record<Side, Map<string, string>> = { request: new Map(), answer: new Map() }
  const schemas: Record<string, { schema: Json; side: Side | "both" }> = {}
  const withRefs = (schema: Json, side: Side): Json => {
    const shaped = sideShape(schema, side)
    return mapSchema(shaped, (node) => {
      const name = byShape[side].get(canonicalText(node))
      return name === undefined ? node : componentRef(name)
    })
  }
  sharedShapes.forEach((shape, i) => {
    const raw = compiled[i] ?? {}
    const differs = canonicalText(sideShape(raw, "request")) !== canonicalText(sideShape(raw, "answer"))
    for (const side of ["answer", "request"] as const) {
      // Registered after its own references are made, so a component never refers to itself.
      const name = nameOn(shape.name, side, differs)
      const withInnerRefs = withRefs(raw, side)
      byShape[side].set(canonicalText(withInnerRefs), name)
      schemas[name] ??= { schema: { ...withInnerRefs, description: shape.description }, side: differs ? side : "both" }
    }
  })
  return { withRefs, schemas }
}
