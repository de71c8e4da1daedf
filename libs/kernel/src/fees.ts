import { Schema } from "effect"
import { percentageFee } from "./allocation.ts"
import { type Fils, Fils as FilsSchema } from "./money.ts"

/**
 * A merchant's fee plan for one kind of operation: a percentage in basis
 * points (1/100 of a percent) plus a fixed amount. The fee is rounded half
 * up to the fils and never exceeds the amount it is charged on. Plans come
 * from configuration and travel on the commands that charge them, so a
 * decision never reads configuration itself.
 */
export const FeePlan = Schema.Struct({
  basisPoints: Schema.Int.check(
    Schema.isBetween({ minimum: 0, maximum: 10_000 }, { message: "must be from 0 to 10000 basis points" }),
  ),
  fixedFils: FilsSchema,
})
export type FeePlan = typeof FeePlan.Type

export const noFees: FeePlan = { basisPoints: 0, fixedFils: 0 as Fils }

export const feeFor = (plan: FeePlan, amount: Fils): Fils => percentageFee(amount, plan.basisPoints, plan.fixedFils)
