/**
 * The refund order's laws as reusable properties over a stream's events
 * (from `validRefundHistories`, or read back from your store), and over the
 * refund orders of one payment: each throws `LawBroken` naming the rule and
 * the step.
 */
import {
  LawBroken,
  type LifecycleLaw,
  lifecycleHolds,
  rulesHoldThroughout,
  type StreamLaw,
} from "@mizan/eventsourcing/testing/properties"
import { refundOrder } from "../aggregate.ts"
import type { Event } from "../events.ts"
import { invariants } from "../invariants.ts"
import type { State } from "../state.ts"

/** What every law throws, and the law over retries, from `@mizan/eventsourcing/testing`. */
/** Reads one of your streams back from the store, decoded, to hold a law to: `readEvents(RefundOrder, merchantId, refundMerchantOrderNo)`. */
export { LawBroken, readEvents, retriesDecideNothing } from "@mizan/eventsourcing/testing/properties"

/**
 * Every rule of the refund's `invariants` holds after every event (the
 * parts sum to the amount, each member once, no event off its status).
 *
 *   fc.property(validRefundHistories, (h) => void refundRulesHold(h.events))
 */
export const refundRulesHold: StreamLaw<Event, State> = rulesHoldThroughout(
  refundOrder,
  invariants,
  "the refund order's rules hold",
)

type Status = "ABSENT" | State["status"]

/** The status each event leads to, read from the event alone (apart from `evolve`, which tolerates and notes). */
const statusAfter: Readonly<Record<Event["_tag"], Status>> = {
  RefundCreated: "CREATED",
  RefundSettled: "REFUNDED_SETTLED",
  RefundSucceeded: "SUCCESS",
  RefundFailed: "FAILURE",
}

/**
 * The stream's events follow the spec's lifecycle: created first, then
 * settled, then SUCCESS; CREATED or REFUNDED_SETTLED may fail; SUCCESS and
 * FAILURE are final. Read from the events' order alone, so it also holds a
 * store or a copier of yours to account.
 *
 *   refundLifecycleHolds(eventsOfMyRefundStream)
 */
export const refundLifecycleHolds: LifecycleLaw<Event, Status> = lifecycleHolds(
  "ABSENT",
  (event) => statusAfter[event._tag],
  {
    ABSENT: ["CREATED"],
    CREATED: ["REFUNDED_SETTLED", "SUCCESS", "FAILURE"],
    REFUNDED_SETTLED: ["SUCCESS", "FAILURE"],
    SUCCESS: [],
    FAILURE: [],
  },
  "the refund lifecycle holds",
)

/**
 * The refund orders of one payment (each stream's last state) together ask
 * back at most what was paid: the refunds not FAILURE sum to `paidFils` or
 * less. The step is the refund that passed it.
 *
 *   refundsWithinPaid(10_000)(myRefundStreamsOfOrder.map((events) => fold(RefundOrder.aggregate, events)))
 */
export const refundsWithinPaid =
  (paidFils: number) =>
  (refunds: ReadonlyArray<State>): void => {
    let asked = 0
    refunds.forEach((refund, i) => {
      if (refund.status === "ABSENT" || refund.status === "FAILURE") return
      asked += refund.details.amountFils
      if (asked > paidFils)
        throw new LawBroken({
          law: "refunds stay within what was paid",
          rule: "refunds not failed never exceed the paid amount",
          step: i + 1,
          what: refund.details.refundMerchantOrderNo,
          detail: `${asked} asked back of ${paidFils} paid`,
        })
    })
  }
