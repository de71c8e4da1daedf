/**
 * Which recorded events announce a notification, and what it carries: the
 * order as the query operation shows it as of that status change, not as
 * it is when the notifier gets to it.
 */
import { AcquiringOrder } from "@mizan/acquiring"
import { at, createOrder, merchantId, orderRequest, payOrder } from "@mizan/acquiring/testing"
import { type EventStore, handleCommand, layerMemory } from "@mizan/eventsourcing"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { notificationSource } from "../src/index.ts"

const run = <A, E>(effect: Effect.Effect<A, E, EventStore>) => Effect.runPromise(Effect.provide(effect, layerMemory))

const paidThenSettled = (notifyUrl: string | undefined) =>
  Effect.gen(function* () {
    const streamId = AcquiringOrder.streamId(merchantId, "ORD-1")
    const { notifyUrl: _, ...withoutNotifyUrl } = orderRequest({ merchantOrderNo: "ORD-1" })
    const request = notifyUrl === undefined ? withoutNotifyUrl : { ...withoutNotifyUrl, notifyUrl }
    const created = yield* handleCommand(AcquiringOrder.aggregate, streamId, { ...createOrder(), request })
    const paid = yield* handleCommand(AcquiringOrder.aggregate, streamId, payOrder())
    const settled = yield* handleCommand(AcquiringOrder.aggregate, streamId, {
      _tag: "SettleOrder",
      merchantId,
      now: at(120_000),
    })
    const describe = (records: typeof paid.records) =>
      notificationSource.describe(records[0] as (typeof paid.records)[number])
    return {
      streamId,
      created: yield* describe(created.records),
      paid: yield* describe(paid.records),
      settled: yield* describe(settled.records),
    }
  })

describe("the notification source", () => {
  it("announces a payment with the order as it was when paid, to the order's notifyUrl, in the order's stream", async () => {
    const { streamId, created, paid, settled } = await run(paidThenSettled("https://merchant.example/notify"))
    // Creating an order is the merchant's own act: nothing to tell it.
    expect(Option.isNone(created)).toBe(true)
    const announcement = Option.getOrThrow(paid)
    expect(announcement).toMatchObject({
      merchantId,
      notifyUrl: "https://merchant.example/notify",
      orderKey: "acquireOrder",
      orderingKey: streamId,
      order: { merchantOrderNo: "ORD-1", status: "PAID_SUCCESS" },
    })
    // Read after the settlement was recorded, the payment's announcement still shows the order as paid.
    expect(Option.getOrThrow(settled).order).toMatchObject({ status: "SETTLED" })
  })

  it("announces nothing for an order created without a notifyUrl", async () => {
    const { paid, settled } = await run(paidThenSettled(undefined))
    expect([Option.isNone(paid), Option.isNone(settled)]).toEqual([true, true])
  })
})
