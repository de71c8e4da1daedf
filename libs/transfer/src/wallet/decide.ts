import { checkRequest, feeFor, namesNoOrder, type Rejection, reject, rejectField, sameRequest } from "@mizan/kernel"
import { Result } from "effect"
import { type Command, type PlaceWalletTransfer, type SettleWalletTransfer, WalletTransferRequest } from "./commands.ts"
import type { Event, WalletTransferFailed } from "./events.ts"
import { type WalletFailCode, walletFailDescription } from "./failures.ts"
import { beneficiaryBalanceMaxFils, transferAmountMaxFils, walletTransferProduct } from "./limits.ts"
import type { State } from "./state.ts"

type Decision = Result.Result<ReadonlyArray<Event>, Rejection>

export const decide = (command: Command, state: State): Decision => {
  switch (command._tag) {
    case "PlaceWalletTransfer":
      return place(command, state)
    case "SettleWalletTransfer":
      return settle(command, state)
  }
}

const failed = (failCode: WalletFailCode, at: WalletTransferFailed["at"]): WalletTransferFailed => ({
  _tag: "WalletTransferFailed",
  failCode,
  failDes: walletFailDescription[failCode],
  at,
})

/**
 * Why the transfer fails at placement, if it does, checked in this order:
 * the per-transfer limit (the merchant's own parameter), the beneficiary's
 * existence, the full-name check (only when a full name was given), then the
 * beneficiary's balance limit (spec: 6. Wallet transfer; Limits).
 */
const placementFailure = ({ request, beneficiary }: PlaceWalletTransfer): WalletFailCode | undefined => {
  if (request.amountFils > transferAmountMaxFils) return "TRANSFER_AMOUNT_LIMIT_EXCEEDED"
  if (beneficiary._tag === "MemberNotFound") return "BENEFICIARY_NOT_FOUND"
  if (request.beneficiaryFullName !== undefined && request.beneficiaryFullName !== beneficiary.fullName)
    return "BENEFICIARY_NAME_MISMATCH"
  if (beneficiary.balanceFils + request.amountFils > beneficiaryBalanceMaxFils)
    return "BENEFICIARY_BALANCE_LIMIT_EXCEEDED"
  return undefined
}

const place = (command: PlaceWalletTransfer, state: State): Decision => {
  const { request, beneficiary, now } = command
  // Idempotent by merchantOrderNo: the same parameters answer the order as it stands.
  if (state.status !== "ABSENT")
    return sameRequest(WalletTransferRequest.fields, request, state)
      ? Result.succeed([])
      : Result.fail(
          rejectField(
            "MERCHANT_ORDER_NO_EXIST",
            "merchantOrderNo",
            `${request.merchantOrderNo} is already a wallet transfer with different parameters`,
          ),
        )
  const invalid = checkRequest(WalletTransferRequest, request)
  if (invalid !== undefined) return Result.fail(invalid)
  const placed: Event = {
    _tag: "WalletTransferPlaced",
    merchantId: command.merchantId,
    orderNo: command.orderNo,
    requestTime: command.requestTime,
    createdTime: now,
    product: walletTransferProduct,
    ...request,
    payerFeeFils: feeFor(command.feePlan, request.amountFils),
    arrivalTime: now,
    ...(beneficiary._tag === "MemberFound" ? { beneficiaryBalanceFils: beneficiary.balanceFils } : {}),
  }
  const failCode = placementFailure(command)
  return Result.succeed(failCode === undefined ? [placed] : [placed, failed(failCode, now)])
}

/** The credit's outcome ends a CREATED transfer; a terminal status is final. */
const settle = ({ merchantId, outcome, now }: SettleWalletTransfer, state: State): Decision => {
  if (state.status === "ABSENT" || state.merchantId !== merchantId)
    return Result.fail(namesNoOrder("MERCHANT_ORDER_NO_NOT_EXIST", "merchantOrderNo", "wallet transfer"))
  switch (state.status) {
    case "CREATED":
      return Result.succeed([
        outcome._tag === "Credited" ? { _tag: "WalletTransferSucceeded", at: now } : failed(outcome.failCode, now),
      ])
    case "SUCCESS":
      return outcome._tag === "Credited"
        ? Result.succeed([])
        : Result.fail(reject("ORDER_SUCCESS", `wallet transfer ${state.orderNo} has already succeeded`))
    case "FAILURE":
      return outcome._tag === "NotCredited"
        ? Result.succeed([])
        : Result.fail(reject("ORDER_FAILURE", `wallet transfer ${state.orderNo} has already failed`))
  }
}
