/**
 * The service's own laws, over what its routes receive:
 * - any sequence of requests: what an order reads as refunded and pending
 *   never exceeds what was paid, and a refund is accepted exactly when its
 *   amount fits in what remains (the paid amount minus the refunds accepted
 *   before it). The expected outcome comes from a model written here, not
 *   from Mizan's code;
 * - many refunds of one order at once, from Mizan's property-testing kit
 *   (`@mizan/acquiring/testing`), raced as from several processes
 *   (`racingStore`): whatever the routes did with them, the order's stream
 *   keeps Mizan's refund limit and every rule of the order.
 */

import { fc, it } from "@fast-check/vitest"
import { AcquiringOrder } from "@mizan/acquiring"
import { acquiringRulesHold, concurrentRefunds, readEvents, refundLimitHolds } from "@mizan/acquiring/testing"
import { layerMemory } from "@mizan/eventsourcing"
import { racingStore } from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import { merchantId } from "../src/payments.ts"
import { route } from "../src/routes.ts"

const orderIds = ["a", "b", "c"]

type Step =
  | { readonly kind: "create"; readonly orderId: string; readonly amountFils: number }
  | { readonly kind: "pay"; readonly orderId: string }
  | { readonly kind: "refund"; readonly orderId: string; readonly amountFils: number }
  | { readonly kind: "complete"; readonly pick: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("create" as const),
    orderId: fc.constantFrom(...orderIds),
    amountFils: fc.integer({ min: 1, max: 5_000 }),
  }),
  fc.record({ kind: fc.constant("pay" as const), orderId: fc.constantFrom(...orderIds) }),
  fc.record({
    kind: fc.constant("refund" as const),
    orderId: fc.constantFrom(...orderIds),
    amountFils: fc.integer({ min: 1, max: 6_000 }),
  }),
  fc.record({ kind: fc.constant("complete" as const), pick: fc.nat() }),
)

interface ModelOrder {
  readonly amountFils: number
  paid: boolean
  acceptedRefundsFils: number
}

const runSteps = (steps: ReadonlyArray<Step>) =>
  Effect.gen(function* () {
    const model = new Map<string, ModelOrder>()
    const refundIds: Array<string> = []
    for (const [index, s] of steps.entries()) {
      if (s.kind === "create") {
        const answer = yield* route({
          method: "POST",
          path: "/orders",
          body: { orderId: s.orderId, amountFils: s.amountFils, description: "Item" },
        })
        // A second create of one orderId with another amount is refused; the first stands.
        if (!model.has(s.orderId)) {
          expect(answer.status).toBe(201)
          model.set(s.orderId, { amountFils: s.amountFils, paid: false, acceptedRefundsFils: 0 })
        }
      } else if (s.kind === "pay") {
        const answer = yield* route({ method: "POST", path: `/orders/${s.orderId}/payment`, body: undefined })
        const order = model.get(s.orderId)
        expect(answer.status).toBe(order === undefined ? 404 : 200)
        if (order !== undefined) order.paid = true
      } else if (s.kind === "refund") {
        const refundId = `r${index}`
        const answer = yield* route({
          method: "POST",
          path: `/orders/${s.orderId}/refunds`,
          body: { refundId, amountFils: s.amountFils },
        })
        const order = model.get(s.orderId)
        const fits = order?.paid && order.acceptedRefundsFils + s.amountFils <= order.amountFils
        expect(answer.status).toBe(fits ? 201 : order === undefined ? 404 : 409)
        if (fits) {
          order.acceptedRefundsFils += s.amountFils
          refundIds.push(refundId)
        }
      } else if (refundIds.length > 0) {
        const refundId = refundIds[s.pick % refundIds.length]
        expect(
          (yield* route({ method: "POST", path: `/refunds/${refundId}/completion`, body: undefined })).status,
        ).toBe(204)
      }
      for (const [orderId, order] of model) {
        const read = (yield* route({ method: "GET", path: `/orders/${orderId}`, body: undefined })).body as {
          paidFils: number
          refundedFils: number
          pendingRefundFils: number
        }
        expect(read.refundedFils + read.pendingRefundFils).toBeLessThanOrEqual(read.paidFils)
        expect(read.refundedFils + read.pendingRefundFils).toBe(order.acceptedRefundsFils)
      }
    }
  }).pipe(Effect.provide(layerMemory))

describe("refunds through the service's routes", () => {
  it.prop([fc.array(step, { maxLength: 40 })], { numRuns: 60 })(
    "never refund more than was paid, and accept exactly the refunds that fit in what remains",
    (steps) => Effect.runPromise(runSteps(steps)),
  )
})

/** The events of one order's stream, as Mizan recorded them for the routes, read back decoded. */
const orderEvents = (orderId: string) => readEvents(AcquiringOrder, merchantId, orderId)

describe("concurrent refunds through the service's routes", () => {
  it.prop([concurrentRefunds], { numRuns: 40 })(
    "whatever the routes do with refunds sent at once from several processes, the order keeps Mizan's refund limit",
    ({ paidFils, refunds }) => {
      // Reads yield to the other requests, and no request waits for another's stream lock, as in separate processes.
      const { layer } = racingStore()
      const post = (path: string, body: unknown) => route({ method: "POST", path, body })
      return Effect.runPromise(
        Effect.gen(function* () {
          const orderId = "raced"
          yield* post("/orders", { orderId, amountFils: paidFils, description: "Race" })
          yield* post(`/orders/${orderId}/payment`, undefined)
          const answers = yield* Effect.all(
            refunds.map(({ request }) =>
              post(`/orders/${orderId}/refunds`, {
                refundId: request.refundMerchantOrderNo,
                amountFils: request.amountFils,
              }),
            ),
            { concurrency: "unbounded" },
          )
          // Taken, refused for the amount, or lost too many races (the client retries that one).
          for (const answer of answers) expect([201, 409, 503]).toContain(answer.status)
          const events = yield* orderEvents(orderId)
          refundLimitHolds(events)
          const order = acquiringRulesHold(events)
          // What the service reads back is what the stream holds.
          const read = (yield* route({ method: "GET", path: `/orders/${orderId}`, body: undefined })).body as {
            pendingRefundFils: number
          }
          expect(order.status === "ABSENT" ? 0 : order.pendingRefundFils).toBe(read.pendingRefundFils)
        }).pipe(Effect.provide(layer)),
      )
    },
  )
})
