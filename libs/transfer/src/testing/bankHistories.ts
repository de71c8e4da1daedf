/**
 * Whole bank-transfer histories for a platform's property tests, decided by
 * the real `BankTransfer.aggregate`: placements over networks, currencies,
 * rates and amounts the merchant may or may not have enabled, then the
 * bank's outcomes, with and without late retries. The laws they must keep
 * are in `laws.ts`.
 */
import { validHistories, withRetries } from "@mizan/eventsourcing/testing/properties"
import { type FeePlan, fils, timestamp } from "@mizan/kernel"
import fc from "fast-check"
import { aggregate } from "../bank/aggregate.ts"
import type { BankOutcome, Command, PlaceBankTransfer } from "../bank/commands.ts"
import type { PayoutAbility } from "../payout/abilities.ts"
import { rate } from "../payout/rate.ts"
import { digestOf } from "./digests.ts"

const placedAt = timestamp(Date.UTC(2026, 2, 1, 10))
const reportedAt = timestamp(Date.UTC(2026, 2, 2, 8))

const ability = (networkCode: string, fundoutCurrencyCode: string, feePlan: FeePlan): PayoutAbility => ({
  countryCode: "UAE",
  fundoutCurrencyCode,
  networkCode,
  name: networkCode,
  beneficiaryType: "IBAN",
  feePlan,
})

/** The abilities a merchant may have enabled: a fixed local fee, and SWIFT at low, no and extreme percentages. */
export const bankAbilities: ReadonlyArray<PayoutAbility> = [
  ability("LOCAL", "AED", { basisPoints: 0, fixedFils: fils(200) }),
  ability("SWIFT", "USD", { basisPoints: 25, fixedFils: fils(1_500) }),
  ability("SWIFT", "JPY", { basisPoints: 10, fixedFils: fils(0) }),
  ability("SWIFT", "KWD", { basisPoints: 9_999, fixedFils: fils(99) }),
]

/**
 * A placement of bank transfer `P-1` of merchant `M1`: a network and
 * currency that may not be among the enabled abilities (62076), any amount
 * up to the largest Fils, a rate with up to five decimals.
 */
export const bankTransferPlacement: fc.Arbitrary<PlaceBankTransfer> = fc
  .record({
    enabled: fc.subarray([...bankAbilities]),
    networkCode: fc.constantFrom("LOCAL", "SWIFT"),
    fundoutCurrencyCode: fc.constantFrom("AED", "USD", "JPY", "KWD"),
    amount: fc.oneof(fc.constantFrom(1, 100_000), fc.integer({ min: 1, max: 99_999_999_999_999 })),
    rateText: fc.constantFrom("1", "0.2723", "40.157", "0.08374", "3.6725"),
    memo: fc.constantFrom("invoice 42", "invoice 43"),
    // Same-moment, an hour, two days: the delays a network's configuration gives.
    arrivalDelayMinutes: fc.constantFrom(0, 60, 2_880),
  })
  .map(({ enabled, networkCode, fundoutCurrencyCode, amount, rateText, memo, arrivalDelayMinutes }) => ({
    _tag: "PlaceBankTransfer",
    merchantId: "M1",
    orderNo: "B0001",
    requestTime: placedAt,
    now: placedAt,
    request: {
      merchantOrderNo: "P-1",
      amountFils: fils(amount),
      holderName: digestOf(1),
      iban: digestOf(2),
      networkCode,
      fundoutCurrencyCode,
      memo,
    },
    clearLengths: { holderNameChars: 17, beneficiaryAddressChars: 0 },
    abilities: enabled,
    rate: rate(rateText),
    arrivalDelayMinutes,
  }))

const outcomes: ReadonlyArray<BankOutcome> = [
  { _tag: "Succeeded", bankReference: "FT26060ABCD", arrivalTime: reportedAt },
  { _tag: "Succeeded", bankReference: "FT26060OTHER", arrivalTime: reportedAt },
  { _tag: "Failed", failDes: "Beneficiary account closed" },
]

/** The bank's report of transfer `P-1`: paid, paid under another reference, or bounced. */
export const bankOutcomeReport: fc.Arbitrary<Command> = fc
  .constantFrom(...outcomes)
  .map((outcome) => ({ _tag: "RecordBankOutcome", merchantId: "M1", now: reportedAt, outcome }))

/**
 * Sequences of commands against one bank transfer: placements (two in three)
 * and the bank's reports.
 *
 *   fc.property(bankTransferCommands, (commands) => myPayoutService.run(commands))
 */
export const bankTransferCommands: fc.Arbitrary<ReadonlyArray<Command>> = fc.array(
  fc.oneof({ weight: 2, arbitrary: bankTransferPlacement }, { weight: 1, arbitrary: bankOutcomeReport }),
  { minLength: 1, maxLength: 8 },
)

/**
 * Histories of `bankTransferCommands`, decided by the real bank transfer.
 *
 *   fc.property(validBankTransferHistories, (h) => void bankTransferRulesHold(h.events))
 */
export const validBankTransferHistories = validHistories(aggregate, bankTransferCommands)

/**
 * `validBankTransferHistories` with accepted commands sent again later (a
 * retried placement, the bank's report delivered twice).
 *
 *   fc.property(bankTransferRetries, (h) => retriesDecideNothing(BankTransfer.aggregate)(h.commands))
 */
export const bankTransferRetries = withRetries(aggregate, bankTransferCommands)
