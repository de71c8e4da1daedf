import { test } from "@fast-check/vitest"
import { fold } from "@mizan/eventsourcing"
import { type AcceptedStep, acceptedSteps, runCommands } from "@mizan/eventsourcing/testing"
import { hourMs } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect } from "vitest"
import {
  type Command,
  decide,
  type Event,
  eventCodec,
  evolve,
  initialState,
  invariants,
  aggregate as refundOrder,
  streamId as refundStreamId,
  type State,
} from "../src/refundOrder.ts"
import { at, completeRefund, createRefund, failRefund, settleRefund } from "./builders.ts"

const now = fc.integer({ min: 0, max: 48 * hourMs }).map(at)

const command: fc.Arbitrary<Command> = fc.oneof(
  fc
    .record({ now, orderNo: fc.constantFrom("SVC-1", "SVC-2"), other: fc.boolean() })
    .map(({ now, orderNo, other }) => ({ ...createRefund(other ? { reason: "other" } : {}, now), orderNo })),
  now.map(settleRefund),
  now.map(completeRefund),
  now.map(failRefund),
)

/** Commands, some of which repeat an earlier one verbatim, possibly after later ones. */
const commandSequence = fc
  .array(
    fc.oneof(
      { arbitrary: command, weight: 3 },
      fc.nat().map((repeat) => ({ repeat })),
    ),
    { minLength: 1, maxLength: 20 },
  )
  .map((steps) => {
    const commands: Array<Command> = [createRefund()]
    for (const step of steps)
      commands.push("repeat" in step ? (commands[step.repeat % commands.length] as Command) : step)
    return commands
  })

type Step = AcceptedStep<Command, Event, State>

const play = (commands: ReadonlyArray<Command>): ReadonlyArray<Step> =>
  acceptedSteps(runCommands({ initialState, decide, evolve }, commands))

const allowedMoves = new Set([
  "ABSENT>CREATED",
  "CREATED>REFUNDED_SETTLED",
  "CREATED>SUCCESS", // settled and succeeded in one decision
  "REFUNDED_SETTLED>SUCCESS",
  "CREATED>FAILURE",
  "REFUNDED_SETTLED>FAILURE",
])

describe("refund order properties over random command sequences", () => {
  test.prop([commandSequence], { numRuns: 200 })("every invariant holds after every step", (commands) => {
    for (const step of play(commands)) expect(invariants(step.after)).toEqual([])
  })

  test.prop([commandSequence], { numRuns: 200 })(
    "only the lifecycle's transitions happen, and nothing after SUCCESS or FAILURE",
    (commands) => {
      for (const { before, events, after } of play(commands)) {
        if (before.status !== after.status) expect(allowedMoves).toContain(`${before.status}>${after.status}`)
        if (before.status === "SUCCESS" || before.status === "FAILURE") expect(events).toEqual([])
      }
    },
  )

  test.prop([commandSequence], { numRuns: 200 })(
    "repeating a command that decided events decides nothing, at any later point",
    (commands) => {
      const steps = play(commands)
      steps.forEach((step, i) => {
        if (step.events.length === 0) return
        for (const later of steps.slice(i)) expect(decide(step.command, later.after)).toEqual(Result.succeed([]))
      })
    },
  )

  test.prop([commandSequence], { numRuns: 200 })(
    "folding the recorded events, through the codec and JSON, rebuilds the same state",
    (commands) => {
      const steps = play(commands)
      const recorded = JSON.parse(JSON.stringify(steps.flatMap((s) => s.events.map(eventCodec.encode))))
      const replayed = recorded.map((serialized: Parameters<typeof eventCodec.decode>[0]) =>
        Result.getOrThrow(eventCodec.decode(serialized)),
      )
      expect(fold(refundOrder, replayed)).toEqual(steps.at(-1)?.after ?? initialState)
    },
  )
})

describe("refund stream ids", () => {
  const part = fc.string({ unit: fc.constantFrom("a", "1", "-", "r"), maxLength: 6 })
  const cause = fc.constantFrom("REQUEST" as const, "REVOKE" as const)
  test.prop([part, part, cause, part, part, cause], { numRuns: 300 })(
    "name different streams for different (merchant, refund number, cause), whatever the characters",
    (m1, r1, c1, m2, r2, c2) => {
      if (m1 !== m2 || r1 !== r2 || c1 !== c2) expect(refundStreamId(m1, r1, c1)).not.toBe(refundStreamId(m2, r2, c2))
    },
  )
})
