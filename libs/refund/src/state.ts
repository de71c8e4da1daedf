/**
 * The state of one refund order stream: no refund yet, or a refund in one of
 * the spec's statuses (CREATED, REFUNDED_SETTLED, SUCCESS, FAILURE).
 */
import type { Timestamp } from "@mizan/kernel"
import type { RefundDetails } from "./commands.ts"

interface RefundCore {
  readonly merchantId: string
  /** The service's number of the refund order. */
  readonly orderNo: string
  readonly details: RefundDetails
  readonly createdAt: Timestamp
  /** Events that did not fit the state they were applied to (only a damaged history has any). */
  readonly anomalies: ReadonlyArray<string>
}

export interface Failure {
  readonly failCode: string
  readonly failDes: string
  readonly failedAt: Timestamp
}

export interface CreatedRefund extends RefundCore {
  readonly status: "CREATED"
}
export interface SettledRefund extends RefundCore {
  readonly status: "REFUNDED_SETTLED"
  readonly settledAt: Timestamp
}
export interface SucceededRefund extends RefundCore {
  readonly status: "SUCCESS"
  readonly settledAt: Timestamp
  readonly succeededAt: Timestamp
}
export interface FailedRefund extends RefundCore {
  readonly status: "FAILURE"
  readonly failure: Failure
  readonly settledAt?: Timestamp
}

export type Order = CreatedRefund | SettledRefund | SucceededRefund | FailedRefund
export type RefundStatus = Order["status"]

export interface NoRefund {
  readonly status: "ABSENT"
  readonly anomalies: ReadonlyArray<string>
}

export type State = NoRefund | Order

export const initialState: State = { status: "ABSENT", anomalies: [] }

export const isRefund = (state: State): state is Order => state.status !== "ABSENT"
