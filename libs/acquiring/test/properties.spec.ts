import { test } from "@fast-check/vitest"
import { fold } from "@mizan/eventsourcing"
import { type AcceptedStep, acceptedSteps, runCommands } from "@mizan/eventsourcing/testing"
import { Rejection } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect } from "vitest"
import {
  aggregate as acquiringOrder,
  streamId as acquiringStreamId,
  type Command,
  decide,
  type Event,
  eventCodec,
  evolve,
  initialState,
  invariants,
  isOrder,
  remainRefundFils,
  type State,
} from "../src/acquiringOrder.ts"
import { commandSequence } from "./arbitraries.ts"

const numRuns = 150

/** The status moves of the spec's state table and the moves it leaves "not shown" that Mizan allows. */
const allowedMoves = new Set([
  "ABSENT>CREATED",
  "CREATED>PAID_SUCCESS",
  "CREATED>FAILURE", // expiry, cancel, revoke of an unpaid order, a failed one-time payment
  "PAID_SUCCESS>SETTLED",
  "PAID_SUCCESS>FAILURE", // revoke of a paid, unsettled order
])

/** What may still happen to an order in a terminal status. */
const allowedAfterTerminal: Record<string, ReadonlySet<Event["_tag"]>> = {
  // The refund a revoke of a paid order started still ends.
  FAILURE: new Set(["RefundConfirmed", "RefundReleased"]),
  // "SETTLED (unchanged)": revoke, refunds.
  SETTLED: new Set(["OrderRevoked", "RefundReserved", "RefundConfirmed", "RefundReleased"]),
}

type Step = AcceptedStep<Command, Event, State>

/** Decides every command on the state the earlier ones left; refusals change nothing and are Rejections. */
const play = (commands: ReadonlyArray<Command>): ReadonlyArray<Step> => {
  const steps = runCommands({ initialState, decide, evolve }, commands)
  for (const step of steps) if (Result.isFailure(step.decided)) expect(step.decided.failure).toBeInstanceOf(Rejection)
  return acceptedSteps(steps)
}

const finalState = (steps: ReadonlyArray<Step>): State => steps.at(-1)?.after ?? initialState

describe("acquiring order properties over random command sequences", () => {
  test.prop([commandSequence], { numRuns })("every invariant holds after every step", (commands) => {
    for (const step of play(commands)) expect(invariants(step.after)).toEqual([])
  })

  test.prop([commandSequence], { numRuns })(
    "remainRefundAmount is paid minus succeeded minus pending refunds, never negative",
    (commands) => {
      for (const { after } of play(commands)) {
        if (!isOrder(after)) continue
        const paid = after.status === "CREATED" ? 0 : (after.payment?.paidAmountFils ?? 0)
        expect(remainRefundFils(after)).toBe(paid - after.refundedFils - after.pendingRefundFils)
        expect(remainRefundFils(after)).toBeGreaterThanOrEqual(0)
      }
    },
  )

  test.prop([commandSequence], { numRuns })(
    "only the spec's status transitions happen, and after a terminal status only what the spec allows",
    (commands) => {
      for (const { before, events, after } of play(commands)) {
        if (before.status !== after.status) expect(allowedMoves).toContain(`${before.status}>${after.status}`)
        const allowed = allowedAfterTerminal[before.status]
        if (allowed !== undefined) for (const event of events) expect(allowed).toContain(event._tag)
      }
    },
  )

  test.prop([commandSequence], { numRuns })(
    "repeating a command that decided events decides nothing, at any later point",
    (commands) => {
      const steps = play(commands)
      steps.forEach((step, i) => {
        if (step.events.length === 0) return
        for (const later of steps.slice(i)) expect(decide(step.command, later.after)).toEqual(Result.succeed([]))
      })
    },
  )

  test.prop([commandSequence], { numRuns })(
    "folding the recorded events, through the codec and JSON, rebuilds the same state",
    (commands) => {
      const steps = play(commands)
      const recorded = JSON.parse(JSON.stringify(steps.flatMap((s) => s.events.map(eventCodec.encode))))
      const replayed = recorded.map((serialized: Parameters<typeof eventCodec.decode>[0]) =>
        Result.getOrThrow(eventCodec.decode(serialized)),
      )
      expect(fold(acquiringOrder, replayed)).toEqual(finalState(steps))
    },
  )
})

describe("acquiring stream ids", () => {
  const part = fc.string({ unit: fc.constantFrom("a", "1", "-", ":"), maxLength: 6 })
  test.prop([part, part, part, part], { numRuns: 300 })(
    "name different streams for different (merchant, merchantOrderNo) pairs, whatever the separators",
    (m1, o1, m2, o2) => {
      if (m1 !== m2 || o1 !== o2) expect(acquiringStreamId(m1, o1)).not.toBe(acquiringStreamId(m2, o2))
    },
  )
})
