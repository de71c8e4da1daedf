/**
 * The bank card transfer's laws as reusable properties over a stream's
 * events (from `validCardTransferHistories`, or read back from your store):
 * each throws `LawBroken` naming the rule and the step.
 */
import {
  type History,
  LawBroken,
  type LifecycleLaw,
  lifecycleHolds,
  rulesHoldThroughout,
  type StreamLaw,
} from "@mizan/eventsourcing/testing/properties"
import { aggregate } from "../aggregate.ts"
import type { Command } from "../commands.ts"
import type { Event } from "../events.ts"
import { invariants } from "../invariants.ts"
import type { State } from "../state.ts"

/** What every law throws, and the law over retries, from `@mizan/eventsourcing/testing`. */
/** Reads one of your streams back from the store, decoded, to hold a law to: `readEvents(BankCardTransfer, merchantId, merchantOrderNo)`. */
export { LawBroken, readEvents, retriesDecideNothing } from "@mizan/eventsourcing/testing/properties"

/**
 * Every rule of the order's `invariants` holds after every append: names
 * by holder type, a 4-digit last4, the fee its plan gives, a card not
 * expired when placed, a refund after the payment.
 *
 *   fc.property(validCardTransferHistories, (h) => void cardTransferRulesHold(h.appends))
 */
export const cardTransferRulesHold: StreamLaw<Event, State> = rulesHoldThroughout(
  aggregate,
  invariants,
  "the bank card transfer's rules hold",
)

type Status = "ABSENT" | "CREATED" | "SUCCESS" | "BANK_FAIL" | "FAILURE" | "REFUNDED"

const statusAfter: Readonly<Record<Event["_tag"], Status>> = {
  BankCardTransferPlaced: "CREATED",
  BankCardTransferSucceeded: "SUCCESS",
  BankCardTransferDeclined: "BANK_FAIL",
  BankCardTransferFailed: "FAILURE",
  BankCardTransferRefunded: "REFUNDED",
}

/**
 * The events follow the order's lifecycle, read from the events alone:
 * placed, then one outcome (SUCCESS, BANK_FAIL, FAILURE); only a failed or
 * declined payout is refunded, once; nothing follows SUCCESS or a refund.
 *
 *   cardTransferLifecycleHolds(eventsOfMyCardTransferStream)
 */
export const cardTransferLifecycleHolds: LifecycleLaw<Event, Status> = lifecycleHolds(
  "ABSENT",
  (event) => statusAfter[event._tag],
  {
    ABSENT: ["CREATED"],
    CREATED: ["SUCCESS", "BANK_FAIL", "FAILURE"],
    SUCCESS: [],
    BANK_FAIL: ["REFUNDED"],
    FAILURE: ["REFUNDED"],
    REFUNDED: [],
  },
  "the bank card transfer's lifecycle holds",
)

/**
 * No event, as the codec writes it, holds a clear card number the commands
 * carried (only its digest and last 4 digits may be written).
 *
 *   fc.property(validCardTransferHistories, cardNumbersNeverWritten)
 */
export const cardNumbersNeverWritten = (
  history: Pick<History<Command, Event, unknown, unknown>, "commands" | "events">,
): void => {
  const clears = history.commands.flatMap((c) => (c._tag === "PlaceBankCardTransfer" ? [c.cardNumber.reveal()] : []))
  history.events.forEach((event, i) => {
    const written = JSON.stringify(aggregate.codec.encode(event))
    const found = clears.find((clear) => written.includes(clear))
    if (found !== undefined)
      throw new LawBroken({
        law: "clear card numbers are never written",
        rule: "an event holds a card's digest and last 4 digits, never its number",
        step: i + 1,
        what: event._tag,
        detail: `the number ending ${found.slice(-4)}`,
      })
  })
}
