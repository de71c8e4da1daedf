/**
 * A small decider for the cross-process test: a balance that must never be
 * overspent, the shape of the refund limit on an acquiring order.
 */
import type { Aggregate } from "@mizan/eventsourcing"
import { makeEventCodec } from "@mizan/eventsourcing"
import { Data, Result, Schema } from "effect"

export const LimitEvent = Schema.Union([
  Schema.TaggedStruct("Funded", { amountFils: Schema.Int }),
  Schema.TaggedStruct("Spent", { amountFils: Schema.Int, reference: Schema.String }),
])
export type LimitEvent = typeof LimitEvent.Type

export type LimitCommand =
  | { readonly _tag: "Fund"; readonly amountFils: number }
  | { readonly _tag: "Spend"; readonly amountFils: number; readonly reference: string }

export interface LimitState {
  readonly balanceFils: number
  readonly references: ReadonlySet<string>
}

export class LimitExceeded extends Data.TaggedError("LimitExceeded")<{
  readonly amountFils: number
  readonly balanceFils: number
}> {}

export const spendingLimit: Aggregate<LimitCommand, LimitEvent, LimitState, LimitExceeded> = {
  initialState: { balanceFils: 0, references: new Set() },
  decide: (command, state) => {
    switch (command._tag) {
      case "Fund":
        return Result.succeed([{ _tag: "Funded", amountFils: command.amountFils }])
      case "Spend":
        if (state.references.has(command.reference)) return Result.succeed([])
        if (command.amountFils > state.balanceFils)
          return Result.fail(new LimitExceeded({ amountFils: command.amountFils, balanceFils: state.balanceFils }))
        return Result.succeed([{ _tag: "Spent", amountFils: command.amountFils, reference: command.reference }])
    }
  },
  evolve: (state, event) => {
    switch (event._tag) {
      case "Funded":
        return { ...state, balanceFils: state.balanceFils + event.amountFils }
      case "Spent":
        return {
          balanceFils: state.balanceFils - event.amountFils,
          references: new Set([...state.references, event.reference]),
        }
    }
  },
  codec: makeEventCodec(LimitEvent, { Funded: { current: 1 }, Spent: { current: 1 } }),
}
