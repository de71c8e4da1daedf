/** Bank card transfer commands and events as the edge builds them, for this lib's tests. */
import { type FeePlan, fils } from "@mizan/kernel"
import { Result } from "effect"
import { BankCardTransfer, CardNumber, legalNameShape } from "../src/index.ts"
import { placeCardTransfer } from "../src/testing/index.ts"
import { at, sha256 } from "./support.ts"

const { aggregate } = BankCardTransfer
export const now = at("2026-03-01T10:00:00Z")
export const later = at("2026-03-01T10:05:00Z")
export const refunded = at("2026-03-02T09:00:00Z")
export const fee: FeePlan = { basisPoints: 150, fixedFils: fils(100) }
export const clearCard = "4111111111111111"
export const card = (clear = clearCard) => new CardNumber(clear, sha256(clear))

/** What the edge does: decrypt, digest the names and the card, measure the company name. */
export const edge = (
  holder:
    | { readonly firstName: string; readonly lastName: string; readonly middleName?: string }
    | { readonly companyName: string },
  clear = clearCard,
  request: Partial<BankCardTransfer.BankCardTransferRequest> = {},
): BankCardTransfer.PlaceBankCardTransfer =>
  "companyName" in holder
    ? placeCardTransfer({
        now,
        holder: "CORPORATE",
        cardNumber: card(clear),
        companyNameShape: legalNameShape(holder.companyName),
        request: { companyName: sha256(holder.companyName), ...request },
      })
    : placeCardTransfer({
        now,
        cardNumber: card(clear),
        request: {
          firstName: sha256(holder.firstName),
          lastName: sha256(holder.lastName),
          ...(holder.middleName === undefined ? {} : { middleName: sha256(holder.middleName) }),
          ...request,
        },
      })
export const aisha = { firstName: "AISHA", lastName: "AL MANSOURI" }
export const place = (request: Partial<BankCardTransfer.BankCardTransferRequest> = {}) =>
  edge(aisha, clearCard, request)
export const placedBy = (command: BankCardTransfer.PlaceBankCardTransfer) =>
  Result.getOrThrow(aggregate.decide(command, aggregate.initialState))[0] as BankCardTransfer.BankCardTransferPlaced

export const outcome = (recorded: BankCardTransfer.CardPayoutOutcome): BankCardTransfer.RecordCardPayoutOutcome => ({
  _tag: "RecordCardPayoutOutcome",
  merchantId: "M1",
  now: later,
  outcome: recorded,
})
export const refund: BankCardTransfer.RecordPayoutRefund = {
  _tag: "RecordPayoutRefund",
  merchantId: "M1",
  now: refunded,
}
export const paid = { _tag: "Paid", bankReference: "VD26060A1" } as const
export const declined = { _tag: "BankDeclined", failDes: "Card issuer declined" } as const
export const failed = { _tag: "Failed", failDes: "Payout network timeout" } as const

export const succeededEvent: BankCardTransfer.BankCardTransferSucceeded = {
  _tag: "BankCardTransferSucceeded",
  bankReference: "VD26060A1",
  at: later,
}
export const declinedEvent: BankCardTransfer.BankCardTransferDeclined = {
  _tag: "BankCardTransferDeclined",
  failDes: "Card issuer declined",
  at: later,
}
export const failedEvent: BankCardTransfer.BankCardTransferFailed = {
  _tag: "BankCardTransferFailed",
  failDes: "Payout network timeout",
  at: later,
}
