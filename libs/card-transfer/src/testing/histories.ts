/**
 * Whole bank-card-transfer histories for a platform's property tests,
 * decided by the real `BankCardTransfer.aggregate`: placements at the
 * card-number, expiry and holder edges, the bank's outcomes and refunds of
 * failed payouts, with and without late retries. The laws are in `laws.ts`.
 */
import { validHistories, withRetries } from "@mizan/eventsourcing/testing/properties"
import { fils } from "@mizan/kernel"
import fc from "fast-check"
import { aggregate } from "../aggregate.ts"
import type { Command, PlaceBankCardTransfer } from "../commands.ts"
import { cardPayoutRefund, cardPayoutReport, placeCardTransfer } from "./builders.ts"

/**
 * A placement of transfer `K-1`: a clear card of 11 to 20 digits (12 and 19
 * are the spec's bounds), an individual or a company (now and then with a
 * name that is no legal name), an expiry last month, this month (March 2026)
 * or later, the product enabled or not.
 *
 *   fc.property(cardTransferPlacement, (command) => myEdge.accepts(command) === ...)
 */
export const cardTransferPlacement: fc.Arbitrary<PlaceBankCardTransfer> = fc
  .record({
    clear: fc
      .integer({ min: 11, max: 20 })
      .chain((digits) =>
        fc.tuple(
          fc.integer({ min: 1, max: 9 }),
          fc.array(fc.nat({ max: 9 }), { minLength: digits - 1, maxLength: digits - 1 }),
        ),
      )
      .map(([first, rest]) => `${first}${rest.join("")}`),
    holder: fc.constantFrom("INDIVIDUAL" as const, "INDIVIDUAL" as const, "CORPORATE" as const),
    shape: fc.constantFrom("PLAUSIBLE" as const, "PLAUSIBLE" as const, "PLAUSIBLE" as const, "ALL_DIGITS" as const),
    amount: fc.oneof(fc.constantFrom(1, 50_000), fc.integer({ min: 1, max: 10_000_000 })),
    expiry: fc.constantFrom(["2026", "2"], ["2026", "3"], ["2026", "03"], ["2027", "12"], ["2028", "09"]),
    enabled: fc.integer({ min: 0, max: 9 }).map((n) => n !== 0),
  })
  .map(({ clear, holder, shape, amount, expiry: [expiryYear = "2028", expiryMonth = "09"], enabled }) => {
    const command = placeCardTransfer({
      clearCardNumber: clear,
      holder,
      enabled,
      request: { amountFils: fils(amount), expiryYear, expiryMonth },
    })
    return holder === "CORPORATE" ? { ...command, companyNameShape: shape } : command
  })

/** The bank's outcome (paid, declined, failed, each with two texts) or a refund of the payout. */
export const cardTransferReport: fc.Arbitrary<Command> = fc.oneof(
  fc.constantFrom("VD26060A1", "VD26060B2").map((bankReference) => cardPayoutReport({ _tag: "Paid", bankReference })),
  fc
    .constantFrom("Card issuer declined", "Card blocked")
    .map((failDes) => cardPayoutReport({ _tag: "BankDeclined", failDes })),
  fc.constantFrom("Payout network timeout").map((failDes) => cardPayoutReport({ _tag: "Failed", failDes })),
  fc.constant(cardPayoutRefund),
)

/**
 * Sequences of commands against one bank card transfer: one to three
 * distinct placements, placed again now and then, between the bank's
 * reports and refunds.
 *
 *   fc.property(cardTransferCommands, (commands) => myPayoutService.run(commands))
 */
export const cardTransferCommands: fc.Arbitrary<ReadonlyArray<Command>> = fc
  .tuple(
    fc.array(cardTransferPlacement, { minLength: 1, maxLength: 3 }),
    fc.array(fc.oneof(fc.nat({ max: 2 }), cardTransferReport), { minLength: 1, maxLength: 8 }),
  )
  .map(([placements, script]) => [
    ...placements.slice(0, 1),
    // A number places (again) one of the placements: a repeat, or the same number with other parameters.
    ...script.map((item) =>
      typeof item === "number" ? (placements[item % placements.length] ?? cardPayoutRefund) : item,
    ),
  ])

/**
 * Histories of `cardTransferCommands`, decided by the real bank card transfer.
 *
 *   fc.property(validCardTransferHistories, (h) => cardNumbersNeverWritten(h))
 */
export const validCardTransferHistories = validHistories(aggregate, cardTransferCommands)

/**
 * `validCardTransferHistories` with accepted commands sent again later (a
 * bank's report delivered twice, a refund reported again).
 *
 *   fc.property(cardTransferRetries, (h) => retriesDecideNothing(BankCardTransfer.aggregate)(h.commands))
 */
export const cardTransferRetries = withRetries(aggregate, cardTransferCommands)
