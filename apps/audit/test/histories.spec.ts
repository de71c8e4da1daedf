/**
 * Generated histories (tools/histories), written through the real deciders
 * and command handler, replay with nothing broken, and their money totals
 * agree with the events they hold.
 */

import { describe, expect, it } from "@effect/vitest"
import { logStart } from "@mizan/eventsourcing"
import { Effect } from "effect"
import fc from "fast-check"
import { isClean, replayLog } from "../src/index.ts"
import { generatedStore } from "./support/histories.ts"
import { onMemoryStore } from "./support/stores.ts"

describe("generated histories", () => {
  it("replay with every event decoded, versions following on and every invariant holding, whatever the seed", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 200, max: 1_200 }),
        // fast-check drives this loop: each run is one effect, run to a promise.
        (seed, events) =>
          Effect.runPromise(
            Effect.gen(function* () {
              const { store, history } = yield* generatedStore(seed, events)
              const report = (yield* onMemoryStore(replayLog({ pageSizeEvents: 97 }), store)).report()
              expect(report.brokenInvariants.listed).toEqual([])
              expect(report.undecodable.listed).toEqual([])
              expect(report.versionGaps.listed).toEqual([])
              expect(isClean(report)).toBe(true)
              expect(report.events).toBe(history.events)
            }),
          ),
      ),
      { numRuns: 6 },
    )
  })

  it.effect("total paid and refunded money exactly as the payments and the succeeded refund orders recorded it", () =>
    Effect.gen(function* () {
      const { store } = yield* generatedStore(11, 3_000)
      const replayer = yield* onMemoryStore(replayLog(), store)
      const log = yield* store.readAll({ after: logStart, maxCount: 1_000_000 })
      const paidFils = log
        .filter((r) => r.type === "OrderPaid")
        .reduce((sum, r) => sum + BigInt((r.data as { paidAmountFils: number }).paidAmountFils), 0n)
      // Checked against the other side of each refund: the refund orders, not the acquiring orders the total is read from.
      let refundedFils = 0n
      for (const tracked of replayer.streams.values()) {
        const refund = tracked.state as { status?: string; details?: { amountFils: number } }
        if (tracked.aggregate?.kind === "refund" && refund.status === "SUCCESS")
          refundedFils += BigInt(refund.details!.amountFils)
      }
      const { money } = replayer.report()
      expect(money.paid).toBe(paidFils)
      expect(money.refunded).toBe(refundedFils)
      expect(money.refunded > 0n).toBe(true)
    }),
  )
})
