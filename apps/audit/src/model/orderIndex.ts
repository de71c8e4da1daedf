/**
 * The gateway's order-number index streams, as the audit reads them. For
 * every orderNo the service issues, the gateway appends one
 * `OrderNumberIssued { orderNo, kind, streamId }` to
 * `order-no-<merchant id length>-<merchant id>-<orderNo>`, expecting
 * `no_stream` (docs/architecture.md#consistency: uniqueness across
 * streams uses reservation streams). Their aggregate lives with the flows that write
 * them (@mizan/order-flows); the audit's rules about them live here.
 *
 * What the audit checks: each index holds exactly one event, and the stream it
 * names exists in the log (checked once the whole log has been read, see
 * replay.ts).
 */

import type { BrokenRule } from "@mizan/kernel"
import type { OrderIndexState } from "@mizan/order-flows"

export {
  type OrderIndexState,
  OrderNumberIssued,
  orderIndex,
  orderIndexEventCodec,
  orderIndexStreamId,
  orderIndexStreamPrefix,
} from "@mizan/order-flows"

export const orderIndexRules = {
  issuedOnce: "an order number is issued once",
  namesExistingStream: "an order number names a stream that exists",
} as const

export const orderIndexInvariants = (state: OrderIndexState): ReadonlyArray<BrokenRule> =>
  state.status === "ISSUED" && state.reissues > 0
    ? [{ rule: orderIndexRules.issuedOnce, detail: `${state.orderNo} issued ${state.reissues + 1} times` }]
    : []
