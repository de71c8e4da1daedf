/**
 * evolve(state, event): the state after one event. Total: an event that does
 * not fit the state leaves it as it was and is written down in `anomalies`,
 * which `invariants` reports (only a damaged history has any).
 */
import type { Event } from "./events.ts"
import { isRefund, type Order, type State } from "./state.ts"

const anomaly = <S extends State>(state: S, what: string): S => ({ ...state, anomalies: [...state.anomalies, what] })

/** An event that does not fit the refund's status (a closure per call would cost the audit's replay an allocation an event). */
const misfit = (refund: Order, event: Event): Order => anomaly(refund, `${event._tag} on a ${refund.status} refund`)

export const evolve = (state: State, event: Event): State => {
  if (event._tag === "RefundCreated") {
    if (isRefund(state)) return anomaly(state, "RefundCreated on a refund that already exists")
    const { _tag, ...created } = event
    return { ...created, status: "CREATED", anomalies: state.anomalies }
  }
  if (!isRefund(state)) return anomaly(state, `${event._tag} before the refund was created`)
  const refund = state
  switch (event._tag) {
    case "RefundSettled":
      if (refund.status !== "CREATED") return misfit(refund, event)
      return { ...refund, status: "REFUNDED_SETTLED", settledAt: event.settledAt }
    case "RefundSucceeded":
      if (refund.status !== "REFUNDED_SETTLED") return misfit(refund, event)
      return { ...refund, status: "SUCCESS", succeededAt: event.succeededAt }
    case "RefundFailed":
      if (refund.status !== "CREATED" && refund.status !== "REFUNDED_SETTLED") return misfit(refund, event)
      return {
        ...refund,
        status: "FAILURE",
        failure: { failCode: event.failCode, failDes: event.failDes, failedAt: event.failedAt },
      }
  }
}
