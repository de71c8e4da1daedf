/**
 * decide(command, state): the events a command causes, or the spec's refusal.
 * Pure and total; time comes in on the command. Search for a code (62017, ...)
 * to find its rule. The refundable balance is not checked here: the acquiring
 * order guards it when it reserves the refund (see the README).
 */
import { type CodeName, namesNoOrder, type Rejection, reject, rejectField, type Timestamp } from "@mizan/kernel"
import { Equal, Result } from "effect"
import { detailsPartsFils } from "./allocation.ts"
import type { Command, CreateRefund } from "./commands.ts"
import type { Event } from "./events.ts"
import { isRefund, type Order, type State } from "./state.ts"

export type Decision = Result.Result<ReadonlyArray<Event>, Rejection>

const accept = (...events: ReadonlyArray<Event>): Decision => Result.succeed(events)
const nothing: Decision = Result.succeed([])
const refuse = (code: CodeName, detail: string): Decision => Result.fail(reject(code, detail))

export const decide = (command: Command, state: State): Decision => {
  if (command._tag === "CreateRefund") return createRefund(command, state)
  if (!isRefund(state) || state.merchantId !== command.merchantId)
    return Result.fail(namesNoOrder("MERCHANT_ORDER_NO_NOT_EXIST", "refundMerchantOrderNo", "refund"))
  switch (command._tag) {
    case "SettleRefund":
      return settleRefund(state, command.now)
    case "CompleteRefund":
      return completeRefund(state, command.now)
    case "FailRefund":
      switch (state.status) {
        case "CREATED":
        case "REFUNDED_SETTLED":
          return accept({
            _tag: "RefundFailed",
            failCode: command.failCode,
            failDes: command.failDes,
            failedAt: command.now,
          })
        case "FAILURE":
          return nothing
        case "SUCCESS":
          return refuse("ORDER_SUCCESS", "the refund already succeeded; it cannot fail")
      }
  }
}

const createRefund = (command: CreateRefund, state: State): Decision => {
  const { details } = command
  if (isRefund(state))
    // "Same refund order number with different business parameters"; the same ones answer the existing refund.
    return Equal.equals(state.details, details)
      ? nothing
      : Result.fail(
          rejectField(
            "REFUND_MERCHANT_ORDER_NO_EXIST",
            "refundMerchantOrderNo",
            "is already used by a refund with other parameters",
          ),
        )
  // The allocation was decided by the acquiring order; a set of parts that does not add up was not.
  if (detailsPartsFils(details) !== BigInt(details.amountFils))
    return refuse("INVALID_PARAMETER", "the refund's parts do not sum to its amount")
  return accept({
    _tag: "RefundCreated",
    merchantId: command.merchantId,
    orderNo: command.orderNo,
    details,
    createdAt: command.now,
  })
}

const settleRefund = (refund: Order, now: Timestamp): Decision => {
  switch (refund.status) {
    case "CREATED":
      return accept({ _tag: "RefundSettled", settledAt: now })
    case "REFUNDED_SETTLED":
    case "SUCCESS":
      return nothing
    case "FAILURE":
      // A refund that failed after it was settled was settled: a repeated report of that is no news.
      return refund.settledAt === undefined ? refuse("ORDER_FAILURE", "the refund failed") : nothing
  }
}

/** SUCCESS comes after REFUNDED_SETTLED: completing a CREATED refund settles it first. */
const completeRefund = (refund: Order, now: Timestamp): Decision => {
  switch (refund.status) {
    case "CREATED":
      return accept({ _tag: "RefundSettled", settledAt: now }, { _tag: "RefundSucceeded", succeededAt: now })
    case "REFUNDED_SETTLED":
      return accept({ _tag: "RefundSucceeded", succeededAt: now })
    case "SUCCESS":
      return nothing
    case "FAILURE":
      return refuse("ORDER_FAILURE", "the refund failed")
  }
}
