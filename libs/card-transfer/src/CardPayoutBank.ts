import { Context, type Effect, Schema } from "effect"
import type { CardNumber } from "./cardNumber.ts"
import type { BankCardTransferOrder } from "./state.ts"

export class CardPayoutBankUnavailable extends Schema.TaggedError<CardPayoutBankUnavailable>()(
  "CardPayoutBankUnavailable",
  { detail: Schema.String },
) {}

/** The holder's clear names, decrypted at the edge for the bank call alone; the order keeps their digests. */
export interface ClearCardHolder {
  readonly firstName?: string
  readonly middleName?: string
  readonly lastName?: string
  readonly companyName?: string
}

/**
 * The bank port for card payouts: the one place the clear card number goes
 * (`cardNumber.reveal()`), with the CREATED order. The outcome comes back
 * later as a RecordCardPayoutOutcome command (the sandbox sends one).
 * Submitting is idempotent by orderNo on the bank's side.
 */
export class CardPayoutBank extends Context.Service<
  CardPayoutBank,
  {
    readonly submitCardPayout: (
      order: BankCardTransferOrder,
      cardNumber: CardNumber,
      holder: ClearCardHolder,
    ) => Effect.Effect<void, CardPayoutBankUnavailable>
  }
>()("@mizan/card-transfer/CardPayoutBank") {}
