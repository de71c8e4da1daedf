/**
 * Builders of realistic acquiring commands for tests (this lib's, the refund
 * lib's, the gateway's and the history writer's). Plain values, no clock.
 */

import { fils, type Sha256Hex, type Timestamp, timestamp, withoutUndefined } from "@mizan/kernel"
import { Result } from "effect"
import type {
  Command,
  CreateOrder,
  OrderRequest,
  PayOrder,
  RefundRequest,
  ReserveRefund,
  SharingParam,
} from "../commands.ts"
import { decide } from "../decide.ts"
import type { Event } from "../events.ts"
import { evolve } from "../evolve.ts"
import { initialState, type State } from "../state.ts"

export const merchantId = "M0001"
export const merchantOrderNo = "ORDER-1"
/** 2026-01-01T00:00:00Z: the request time of the orders built here. */
export const t0: Timestamp = timestamp(1_767_225_600_000)
export const at = (msAfterT0: number): Timestamp => timestamp(t0 + msAfterT0)

/** A well-formed SHA-256 hex digest standing for the n-th identity (tests never need the clear value). */
export const digest = (n: number): Sha256Hex => n.toString(16).padStart(64, "0") as Sha256Hex

export const sharingItem = (
  sharingIdentitySeqId: number,
  amount: number,
  withholdAndRemitFee?: boolean,
): SharingParam => ({
  sharingIdentitySeqId,
  sharingIdentityType: "PHONE_NO",
  sharingIdentity: digest(sharingIdentitySeqId),
  sharingMemo: `share ${sharingIdentitySeqId}`,
  sharingAmountFils: fils(amount),
  ...withoutUndefined({ withholdAndRemitFee }),
})

export const orderRequest = (overrides: Partial<OrderRequest> = {}): OrderRequest => ({
  merchantOrderNo,
  subject: "Coffee beans",
  totalAmountFils: fils(10_000),
  paySceneCode: "PAYPAGE",
  notifyUrl: "https://merchant.example/notify",
  ...overrides,
})

export const createOrder = (request: Partial<OrderRequest> = {}, now: Timestamp = t0): CreateOrder => ({
  _tag: "CreateOrder",
  merchantId,
  orderNo: "SVC-ORDER-1",
  requestTime: now,
  now,
  request: orderRequest(request),
})

export const payOrder = (overrides: Partial<PayOrder> = {}): PayOrder => ({
  _tag: "PayOrder",
  merchantId,
  now: at(60_000),
  attemptId: "attempt-1",
  paidAmountFils: fils(10_000),
  payChannel: "BANKCARD",
  payerFeeFils: fils(0),
  feePlan: { basisPoints: 250, fixedFils: fils(0) },
  payer: { payerMid: "PAYER-1", mobileNumberMask: "97150***4567", deviceId: "device-1", ipAddress: "192.0.2.10" },
  ...overrides,
})

export const refundRequest = (overrides: Partial<RefundRequest> = {}): RefundRequest => ({
  refundMerchantOrderNo: "REFUND-1",
  amountFils: fils(1_000),
  ...overrides,
})

export const reserveRefund = (
  request: Partial<RefundRequest> = {},
  overrides: Partial<Omit<ReserveRefund, "request">> = {},
): ReserveRefund => ({
  _tag: "ReserveRefund",
  merchantId,
  now: at(3_600_000),
  refundOrderNo: `SVC-${request.refundMerchantOrderNo ?? "REFUND-1"}`,
  request: refundRequest(request),
  ...overrides,
})

/** The events a sequence of commands decides, each on the state the earlier ones left; throws on a refusal. */
export const eventsDecidedBy = (...commands: ReadonlyArray<Command>): ReadonlyArray<Event> => {
  const events: Array<Event> = []
  let state: State = initialState
  for (const command of commands) {
    const decided = decide(command, state)
    if (Result.isFailure(decided)) throw new Error(`${command._tag} was refused: ${decided.failure.message}`)
    events.push(...decided.success)
    state = decided.success.reduce(evolve, state)
  }
  return events
}
