/**
 * Which flows a crash left half done, read from the log (docs/architecture.md,
 * "Flows of several appends"). Every flow of two or more appends leaves its
 * mark after its first: a refund or a revoke reserves on the acquiring order
 * before its refund order is created; a refund's end is recorded on the refund
 * order before the reservation is confirmed or released; a wallet transfer is
 * placed CREATED before the member is credited and the order settled; on a
 * store that appends the parts of one write in turn (KurrentDB), a new
 * order is recorded before its orderNo's index. A first step whose second has not followed within `halfDoneAgeMs` is half
 * done: the request that began it died with its process, and the service
 * completes it itself (`completeHalfDone`) rather than waiting for a
 * merchant's retry that may never come.
 *
 * Pure: the recovery folds the log through `trackHalfDone`, and
 * `halfDoneDue` answers what is due. Memory holds only the flows still open
 * (an ended refund, a settled transfer is forgotten).
 */

import type { OrderKind } from "../orderIndex.ts"

/** A flow's first step is this old, on the recovery's clock, before it counts as half done. */
export const halfDoneAgeMs = 30_000

/** What a half-done flow needs to be completed, by what its first step left. */
export type HalfDoneStep =
  /** An order the service numbered whose orderNo was never indexed (`createIndexedOrder` cut between its parts). */
  | {
      readonly _tag: "IndexOrderNo"
      readonly merchantId: string
      readonly orderNo: string
      readonly kind: OrderKind
      readonly streamId: string
    }
  /** A reservation (a refund request's or a revoke's) whose refund order was never created. */
  | { readonly _tag: "CreateRefundOrder"; readonly acquiringStream: string; readonly refundOrderNo: string }
  /** A refund order that ended (SUCCESS or FAILURE) whose reservation was neither confirmed nor released. */
  | { readonly _tag: "EndReservation"; readonly refundStream: string; readonly refundOrderNo: string }
  /** A wallet transfer placed CREATED that was never settled (the credit not asked, or its outcome not recorded). */
  | { readonly _tag: "SettleWalletTransfer"; readonly walletStream: string }

/** The first steps seen and not yet followed by their second, each with when the recovery first saw it. */
export interface HalfDoneFlows {
  /** By order stream: the numbered orders created, awaiting their orderNo's index. */
  readonly unindexed: Map<
    string,
    { readonly merchantId: string; readonly orderNo: string; readonly kind: OrderKind; readonly sinceMs: number }
  >
  /** By refund orderNo: the reservation, awaiting its refund order. */
  readonly reservations: Map<string, { readonly acquiringStream: string; readonly sinceMs: number }>
  /** By refund stream: the refund orders created that have not ended, and their orderNo. */
  readonly openRefunds: Map<string, string>
  /** By refund orderNo: the ended refund orders, awaiting their reservation's end. */
  readonly endedRefunds: Map<string, { readonly refundStream: string; readonly sinceMs: number }>
  /** By stream: the wallet transfers placed and not settled. */
  readonly placedTransfers: Map<string, number>
}

export const noHalfDoneFlows = (): HalfDoneFlows => ({
  unindexed: new Map(),
  reservations: new Map(),
  openRefunds: new Map(),
  endedRefunds: new Map(),
  placedTransfers: new Map(),
})

/** The part of a recorded event the recovery reads. */
export interface LoggedEvent {
  readonly streamId: string
  readonly type: string
  readonly data: unknown
}

const field = (data: unknown, name: string): string | undefined => {
  const value = typeof data === "object" && data !== null ? (data as Record<string, unknown>)[name] : undefined
  return typeof value === "string" ? value : undefined
}

const trackAcquiring = (flows: HalfDoneFlows, event: LoggedEvent, seenAtMs: number): void => {
  const refundOrderNo = field(event.data, "refundOrderNo")
  if (refundOrderNo === undefined) return
  if (event.type === "RefundReserved")
    flows.reservations.set(refundOrderNo, { acquiringStream: event.streamId, sinceMs: seenAtMs })
  if (event.type === "RefundConfirmed" || event.type === "RefundReleased") {
    flows.reservations.delete(refundOrderNo)
    flows.endedRefunds.delete(refundOrderNo)
  }
}

const trackRefund = (flows: HalfDoneFlows, event: LoggedEvent, seenAtMs: number): void => {
  if (event.type === "RefundCreated") {
    const orderNo = field(event.data, "orderNo")
    if (orderNo === undefined) return
    flows.reservations.delete(orderNo)
    flows.openRefunds.set(event.streamId, orderNo)
    return
  }
  if (event.type !== "RefundSucceeded" && event.type !== "RefundFailed") return
  const orderNo = flows.openRefunds.get(event.streamId)
  if (orderNo === undefined) return
  flows.openRefunds.delete(event.streamId)
  flows.endedRefunds.set(orderNo, { refundStream: event.streamId, sinceMs: seenAtMs })
}

const trackWalletTransfer = (flows: HalfDoneFlows, event: LoggedEvent, seenAtMs: number): void => {
  if (event.type === "WalletTransferPlaced") flows.placedTransfers.set(event.streamId, seenAtMs)
  else if (event.type === "WalletTransferSucceeded" || event.type === "WalletTransferFailed")
    flows.placedTransfers.delete(event.streamId)
}

/** The event that creates each kind of order the service numbers, and indexes (`createIndexedOrder`). */
const creations: Readonly<Record<string, OrderKind>> = {
  OrderCreated: "acquiring",
  RefundCreated: "refund",
  WalletTransferPlaced: "walletTransfer",
  BankTransferPlaced: "bankTransfer",
  BankCardTransferPlaced: "cardTransfer",
}

const trackIndex = (flows: HalfDoneFlows, event: LoggedEvent, seenAtMs: number): void => {
  if (event.type === "OrderNumberIssued") {
    const indexed = field(event.data, "streamId")
    if (indexed !== undefined) flows.unindexed.delete(indexed)
    return
  }
  const kind = creations[event.type]
  const merchantId = field(event.data, "merchantId")
  const orderNo = field(event.data, "orderNo")
  if (kind === undefined || merchantId === undefined || orderNo === undefined) return
  flows.unindexed.set(event.streamId, { merchantId, orderNo, kind, sinceMs: seenAtMs })
}

/** Takes in one event of the log, in log order, seen by the recovery at `seenAtMs`. */
export const trackHalfDone = (flows: HalfDoneFlows, event: LoggedEvent, seenAtMs: number): void => {
  trackIndex(flows, event, seenAtMs)
  if (event.streamId.startsWith("acquiring-")) trackAcquiring(flows, event, seenAtMs)
  else if (event.streamId.startsWith("refund-")) trackRefund(flows, event, seenAtMs)
  else if (event.streamId.startsWith("walletTransfer/")) trackWalletTransfer(flows, event, seenAtMs)
}

/** The half-done flows whose first step was seen at least `ageMs` before `nowMs`, oldest first within each kind. */
export const halfDoneDue = (
  flows: HalfDoneFlows,
  nowMs: number,
  ageMs = halfDoneAgeMs,
): ReadonlyArray<HalfDoneStep> => {
  const due = (sinceMs: number) => sinceMs <= nowMs - ageMs
  const steps: Array<HalfDoneStep> = []
  for (const [streamId, { merchantId, orderNo, kind, sinceMs }] of flows.unindexed)
    if (due(sinceMs)) steps.push({ _tag: "IndexOrderNo", merchantId, orderNo, kind, streamId })
  for (const [refundOrderNo, { acquiringStream, sinceMs }] of flows.reservations)
    if (due(sinceMs)) steps.push({ _tag: "CreateRefundOrder", acquiringStream, refundOrderNo })
  for (const [refundOrderNo, { refundStream, sinceMs }] of flows.endedRefunds)
    if (due(sinceMs)) steps.push({ _tag: "EndReservation", refundStream, refundOrderNo })
  for (const [walletStream, sinceMs] of flows.placedTransfers)
    if (due(sinceMs)) steps.push({ _tag: "SettleWalletTransfer", walletStream })
  return steps
}

/**
 * Forgets a step once its completion ran: what it appended will say so
 * too, but a completion that found nothing left to do (the merchant's
 * retry got there first, the order moved on) appends nothing.
 */
export const forgetHalfDone = (flows: HalfDoneFlows, step: HalfDoneStep): void => {
  if (step._tag === "IndexOrderNo") flows.unindexed.delete(step.streamId)
  else if (step._tag === "CreateRefundOrder") flows.reservations.delete(step.refundOrderNo)
  else if (step._tag === "EndReservation") flows.endedRefunds.delete(step.refundOrderNo)
  else flows.placedTransfers.delete(step.walletStream)
}
