import { AcquiringOrder } from "@mizan/acquiring"
import { BankCardTransfer } from "@mizan/card-transfer"
import { forgotten } from "@mizan/kernel"
import { notificationOrders } from "@mizan/protocol"
import { RefundOrder } from "@mizan/refund"
import { BankTransfer, MemberAccount, VamDeposit, WalletTransfer } from "@mizan/transfer"
import type { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { mizanSealingPlan } from "../src/index.ts"

type EventUnion = { readonly members: ReadonlyArray<{ readonly fields: Record<string, Schema.Top> }> }

const eventUnions: ReadonlyArray<EventUnion> = [
  AcquiringOrder.Event,
  RefundOrder.Event,
  BankCardTransfer.Event,
  WalletTransfer.Event,
  MemberAccount.Event,
  BankTransfer.Event,
  VamDeposit.Event,
] as unknown as ReadonlyArray<EventUnion>

/** Whether a field's schema admits the `[forgotten]` placeholder: one made with `Personal`. */
const admitsForgotten = (field: Schema.Top): boolean =>
  JSON.stringify(field.ast, (_key, value: unknown) => (typeof value === "bigint" ? String(value) : value)).includes(
    JSON.stringify(forgotten),
  )

const tagOf = (member: EventUnion["members"][number]): string =>
  (member.fields._tag as unknown as { readonly ast: { readonly literal: string } }).ast.literal

describe("Mizan's sealing plan", () => {
  it("seals exactly the event fields whose schema reads [forgotten]: a personal field the plan forgot would be stored in clear", () => {
    const personal: Record<string, ReadonlyArray<string>> = {}
    for (const union of eventUnions)
      for (const member of union.members) {
        const fields = Object.entries(member.fields)
          .filter(([, schema]) => admitsForgotten(schema))
          .map(([name]) => name)
        if (fields.length > 0) personal[tagOf(member)] = fields.sort()
      }
    // Fields of the events' own top level; a notification's copy of an order is checked below.
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
  const personalInOrders = Object.entries(notificationOrders).flatMap(([, schema]) =>
    Object.entries((schema as unknown as { fields: Record<string, Schema.Top> }).fields)
      .filter(([, field]) => admitsForgotten(field))
      .map(([name]) => `order.${name}`),
  )

  it("seals, in a scheduled notification's copy of an order, every order field the wire may answer as [forgotten]", () => {
    const planned = (mizanSealingPlan.events.NotificationScheduled ?? []).flatMap((subject) => subject.fields)
    expect([...new Set(planned)].sort()).toEqual([...new Set(personalInOrders)].sort())
  })
})
