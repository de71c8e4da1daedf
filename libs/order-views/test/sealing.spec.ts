import { AcquiringOrder } from "@mizan/acquiring"
import { BankCardTransfer } from "@mizan/card-transfer"
import { forgotten } from "@mizan/kernel"
import { notificationOrders } from "@mizan/protocol"
import { RefundOrder } from "@mizan/refund"
import { BankTransfer, MemberAccount, VamDeposit, WalletTransfer } from "@mizan/transfer"
import type { Schema, SchemaAST } from "effect"
import { describe, expect, it } from "vitest"
import { mizanSealingPlan } from "../src/index.ts"

type Fields = Record<string, Schema.Top>
/** An event schema: a struct, or a struct whose stored keys are renamed (`Schema.encodeKeys`): its stored side. */
type EventMember = { readonly fields: Fields } | { readonly from: { readonly fields: Fields } }
type EventUnion = { readonly members: ReadonlyArray<EventMember> }

/** The fields as stored: what the sealing plan names. */
const storedFields = (member: EventMember): Fields => ("fields" in member ? member.fields : member.from.fields)

const eventUnions: ReadonlyArray<EventUnion> = [
  AcquiringOrder.Event,
  RefundOrder.Event,
  BankCardTransfer.Event,
  WalletTransfer.Event,
  MemberAccount.Event,
  BankTransfer.Event,
  VamDeposit.Event,
] as unknown as ReadonlyArray<EventUnion>

/**
 * The paths below `path` whose schema admits the `[forgotten]` placeholder
 * (one made with `Personal`), in a sealing plan's dialect: into objects by
 * dots, into each item of a list by `[]`.
 */
const personalPaths = (ast: SchemaAST.AST, path: string): ReadonlyArray<string> => {
  switch (ast._tag) {
    case "Union":
      if (ast.types.some((member) => member._tag === "Literal" && member.literal === forgotten)) return [path]
      return [...new Set(ast.types.flatMap((member) => personalPaths(member, path)))]
    case "Objects":
      return ast.propertySignatures.flatMap((property) =>
        personalPaths(property.type, `${path === "" ? "" : `${path}.`}${String(property.name)}`),
      )
    case "Arrays":
      return [...ast.elements, ...ast.rest].flatMap((item) => personalPaths(item, `${path}[]`))
    case "Suspend":
      return personalPaths(ast.thunk(), path)
    default:
      return []
  }
}

const personalPathsOf = (fields: Fields, prefix = ""): ReadonlyArray<string> =>
  Object.entries(fields).flatMap(([name, schema]) => personalPaths(schema.ast, `${prefix}${name}`))

const tagOf = (member: EventMember): string =>
  (storedFields(member)._tag as unknown as { readonly ast: { readonly literal: string } }).ast.literal

describe("Mizan's sealing plan", () => {
  it("seals exactly the event fields whose schema reads [forgotten]: a personal field the plan forgot would be stored in clear", () => {
    const personal: Record<string, ReadonlyArray<string>> = {}
    for (const union of eventUnions)
      for (const member of union.members) {
        const fields = [...personalPathsOf(storedFields(member))]
        if (fields.length > 0) personal[tagOf(member)] = fields.sort()
      }
    // Fields of the events' own data, nested ones by their paths; a notification's copy of an order is checked below.
    const planned = Object.fromEntries(
      Object.entries(mizanSealingPlan.events)
        .filter(([type]) => type !== "NotificationScheduled")
        .map(([type, subjects]) => [type, subjects.flatMap((subject) => subject.fields).sort()]),
    )
    expect(planned).toEqual(personal)
  })

  it("names by each subject a field the subject's own fields hold, so that the identifying value is sealed too", () => {
    for (const subjects of Object.values(mizanSealingPlan.events))
      for (const subject of subjects) expect(subject.fields).toContain(subject.identifiedBy)
  })

  it("keys the member account streams, whose ids hold a member id's digest", () => {
    expect(mizanSealingPlan.streams).toEqual([{ category: "memberAccount" }])
  })
})

describe("the sealing plan of notifications", () => {
  /** Every field of a notification's order object whose wire schema reads [forgotten]. */
  const personalInOrders = Object.values(notificationOrders).flatMap((schema) =>
    personalPathsOf((schema as unknown as { fields: Fields }).fields, "order."),
  )

  it("seals, in a scheduled notification's copy of an order, every order field the wire may answer as [forgotten]", () => {
    const planned = (mizanSealingPlan.events.NotificationScheduled ?? []).flatMap((subject) => subject.fields)
    expect([...new Set(planned)].sort()).toEqual([...new Set(personalInOrders)].sort())
  })
})
