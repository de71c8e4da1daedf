/**
 * Which recorded events announce a notification, and what it carries: the
 * order as the query operation shows it as of that status change, not as
 * it is when the notifier gets to it.
 */
import { it } from "@effect/vitest"
import { AcquiringOrder } from "@mizan/acquiring"
import { at, createOrder, merchantId, orderRequest, payOrder } from "@mizan/acquiring/testing"
import { handleCommand, layerMemory } from "@mizan/eventsourcing"
import { Effect, Option } from "effect"
import { describe, expect } from "vitest"
import { notificationSource } from "../src/index.ts"

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
  }).pipe(Effect.provide(layerMemory))

describe("the notification source", () => {
  it.effect(
    "announces a payment with the order as it was when paid, to the order's notifyUrl, in the order's stream",
    () =>
      Effect.gen(function* () {
        const { streamId, created, paid, settled } = yield* paidThenSettled("https://merchant.example/notify")
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
      }),
  )

  it.effect("announces nothing for an order created without a notifyUrl", () =>
    Effect.gen(function* () {
      const { paid, settled } = yield* paidThenSettled(undefined)
      expect([Option.isNone(paid), Option.isNone(settled)]).toEqual([true, true])
    }),
  )
})
