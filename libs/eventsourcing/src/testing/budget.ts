/**
 * A small decider for tests of the runtime and of store adapters: a budget
 * that must never be overspent, the shape of the refund limit on an
 * acquiring order. A repeated spend (same reference) decides nothing.
 */
import { reject } from "@mizan/kernel"
import { Result, Schema } from "effect"
import { makeEventCodec } from "../codec.ts"
import type { Aggregate } from "../handler.ts"

export const BudgetEvent = Schema.Union([
  Schema.TaggedStruct("Funded", { amount: Schema.Int }),
  Schema.TaggedStruct("Spent", { amount: Schema.Int, reference: Schema.String }),
])
export type BudgetEvent = typeof BudgetEvent.Type

export type BudgetCommand =
  | { readonly _tag: "Fund"; readonly amount: number }
  | { readonly _tag: "Spend"; readonly amount: number; readonly reference: string }

export interface BudgetState {
  readonly balance: number
  readonly references: ReadonlySet<string>
}

export const budget: Aggregate<BudgetCommand, BudgetEvent, BudgetState, ReturnType<typeof reject>> = {
  initialState: { balance: 0, references: new Set() },
  decide: (command, state) => {
    switch (command._tag) {
      case "Fund":
        return Result.succeed([{ _tag: "Funded", amount: command.amount }])
      case "Spend":
        if (state.references.has(command.reference)) return Result.succeed([])
        if (command.amount > state.balance)
          return Result.fail(reject("REFUND_AMOUNT_EXCEEDED", `${command.amount} > ${state.balance}`))
        return Result.succeed([{ _tag: "Spent", amount: command.amount, reference: command.reference }])
    }
  },
  evolve: (state, event) => {
    switch (event._tag) {
      case "Funded":
        return { ...state, balance: state.balance + event.amount }
      case "Spent":
        return { balance: state.balance - event.amount, references: new Set([...state.references, event.reference]) }
    }
  },
  codec: makeEventCodec(BudgetEvent, {
    Funded: { current: 1 },
    // Version 1 of Spent had no reference; such spends are read as "legacy".
    Spent: { current: 2, upcasters: { 1: (data) => ({ ...data, reference: "legacy" }) } },
  }),
}
