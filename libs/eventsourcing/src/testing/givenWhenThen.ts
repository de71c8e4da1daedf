import { Result } from "effect"
import { expect } from "vitest"
import { type Decider, fold } from "../decider.ts"

/**
 * Given/when/then over a decider, on events (Emmett's DeciderSpecification):
 *
 *   spec(refund).given([paid]).when(refundTooMuch).thenRejects({ code: "REFUND_AMOUNT_EXCEEDED" })
 */
export const deciderSpec = <Command, Event, State, Error>(decider: Decider<Command, Event, State, Error>) => ({
  given: (events: ReadonlyArray<Event>) => ({
    when: (command: Command) => {
      const state = fold(decider, events)
      const decided = decider.decide(command, state)
      return {
        /** The events decided, exactly. */
        thenEmits: (expected: ReadonlyArray<Event>): void => {
          if (Result.isFailure(decided))
            throw new globalThis.Error(`expected events, the decider refused: ${String(decided.failure)}`)
          expect(decided.success).toEqual(expected)
        },
        /** Nothing new decided (a repeat of something already done). */
        thenNothing: (): void => {
          if (Result.isFailure(decided))
            throw new globalThis.Error(`expected no events, the decider refused: ${String(decided.failure)}`)
          expect(decided.success).toEqual([])
        },
        /** A refusal that matches these fields (e.g. its code). */
        thenRejects: (expected: Partial<Error>): void => {
          if (Result.isSuccess(decided))
            throw new globalThis.Error(`expected a refusal, the decider decided ${JSON.stringify(decided.success)}`)
          expect(decided.failure).toMatchObject(expected)
        },
        /** The state after folding what was decided, for assertions on it. */
        thenState: (check: (state: State) => void): void => {
          if (Result.isFailure(decided))
            throw new globalThis.Error(`expected events, the decider refused: ${String(decided.failure)}`)
          check(decided.success.reduce(decider.evolve, state))
        },
      }
    },
  }),
})
