import { Context, type Effect, Schema } from "effect"
import type { Iban } from "../iban/iban.ts"
import type { BankTransferOrder } from "./state.ts"

export class BankUnavailable extends Schema.TaggedError<BankUnavailable>()("BankUnavailable", {
  detail: Schema.String,
}) {}

/**
 * The beneficiary's clear values, decrypted at the edge for the bank call
 * alone: the order keeps only their digests, so the bank port is the one
 * place they go.
 */
export interface ClearBeneficiary {
  readonly holderName: string
  readonly iban: Iban
  readonly accountNo?: string
  readonly beneficiaryAddress?: string
}

/**
 * The bank port: hands a CREATED bank transfer to the bank. Its outcome
 * comes back later as a RecordBankOutcome command (the sandbox sends one).
 * Submitting is idempotent by orderNo on the bank's side.
 */
export class PayoutBank extends Context.Service<
  PayoutBank,
  {
    readonly submitBankTransfer: (
      order: BankTransferOrder,
      beneficiary: ClearBeneficiary,
    ) => Effect.Effect<void, BankUnavailable>
  }
>()("@mizan/transfer/PayoutBank") {}
