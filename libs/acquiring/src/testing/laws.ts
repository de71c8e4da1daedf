/**
 * The acquiring order's laws as reusable properties over a stream's events
 * (from `validAcquiringHistories`, or read back from your store after your
 * code ran): each throws `LawBroken` naming the rule and the event.
 */
import { rulesHoldThroughout, type StreamLaw } from "@mizan/eventsourcing/testing/properties"
import { acquiringOrder } from "../aggregate.ts"
import type { Event } from "../events.ts"
import { invariants, rules } from "../invariants.ts"
import type { State } from "../state.ts"
import { viewOfOrder } from "./view.ts"

/** What every law throws, and the law over retries, from `@mizan/eventsourcing/testing`. */
/** Reads one of your streams back from the store, decoded, to hold a law to: `readEvents(AcquiringOrder, merchantId, merchantOrderNo)`. */
export { LawBroken, readEvents, retriesDecideNothing } from "@mizan/eventsourcing/testing/properties"

/**
 * Every rule of the order's `invariants` (the audit's check) holds after
 * every event, the spec's status transitions among them (an event that does
 * not fit the order's status is an anomaly). Answers the order's last state.
 *
 *   fc.property(validAcquiringHistories, (h) => void acquiringRulesHold(h.events))
 */
export const acquiringRulesHold: StreamLaw<Event, State> = rulesHoldThroughout(
  acquiringOrder,
  invariants,
  "the acquiring order's rules hold",
)

/**
 * What the order reads as refunded or pending never passes what was paid,
 * and no account (payee, each sharing member, fee) gives back more than it
 * received, after every event. Worked out from the order's balances
 * (`viewOfOrder`), apart from `invariants`.
 *
 *   refundLimitHolds(eventsOfMyOrderStream) // whatever my code did with Mizan
 */
export const refundLimitHolds: StreamLaw<Event, State> = rulesHoldThroughout(
  acquiringOrder,
  (state: State) => {
    const view = viewOfOrder(state)
    const limit =
      view.refundedFils + view.pendingRefundFils > view.paidFils
        ? [
            {
              rule: rules.refundsWithinPaid,
              detail: `${view.refundedFils} refunded + ${view.pendingRefundFils} pending > ${view.paidFils} paid`,
            },
          ]
        : []
    const accounts = view.accounts
      .filter((a) => a.refundedFils > a.receivedFils)
      .map((a) => ({
        rule: "no account gives back more than it received",
        detail: `${a.account} gives back ${a.refundedFils} of ${a.receivedFils}`,
      }))
    return [...limit, ...accounts]
  },
  "the refund limit holds",
)
