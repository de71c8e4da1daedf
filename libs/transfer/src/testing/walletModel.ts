/**
 * A reference model of one wallet transfer, written from the spec (6. Wallet
 * transfer; Limits) apart from the decider: plain numbers, the limits
 * written as numbers here (AED 10,000 per transfer, AED 20,000 on the
 * beneficiary's balance), never read from the decider's constants.
 */
import type { CodeName } from "@mizan/kernel"
import type { Command } from "../wallet/commands.ts"
import type { WalletFailCode } from "../wallet/failures.ts"

/** AED 10,000: the most one wallet transfer may carry, in fils. */
const transferLimitFils = 1_000_000
/** AED 20,000: the most a beneficiary's balance may reach with the transfer, in fils. */
const balanceLimitFils = 2_000_000

export type WalletOutcome =
  | { readonly kind: "accepted" }
  | { readonly kind: "nothing" }
  | { readonly kind: "refused"; readonly code: CodeName }

export interface WalletModel {
  readonly status: "ABSENT" | "CREATED" | "SUCCESS" | "FAILURE"
  readonly merchantId: string
  readonly requestKey: string
  readonly failCode: WalletFailCode | undefined
  readonly payerFeeAmount: number
}

export const emptyWalletModel: WalletModel = {
  status: "ABSENT",
  merchantId: "",
  requestKey: "",
  failCode: undefined,
  payerFeeAmount: 0,
}

const accepted: WalletOutcome = { kind: "accepted" }
const nothing: WalletOutcome = { kind: "nothing" }
const refused = (code: CodeName): WalletOutcome => ({ kind: "refused", code })

/** Why a transfer fails when placed, in the spec's order: amount, member, full name, balance. */
const placementFailure = (command: Extract<Command, { _tag: "PlaceWalletTransfer" }>): WalletFailCode | undefined => {
  const { request, beneficiary } = command
  if (request.amount > transferLimitFils) return "TRANSFER_AMOUNT_LIMIT_EXCEEDED"
  if (beneficiary._tag === "MemberNotFound") return "BENEFICIARY_NOT_FOUND"
  if (request.beneficiaryFullName !== undefined && request.beneficiaryFullName !== beneficiary.fullName)
    return "BENEFICIARY_NAME_MISMATCH"
  if (beneficiary.balanceFils + request.amount > balanceLimitFils) return "BENEFICIARY_BALANCE_LIMIT_EXCEEDED"
  return undefined
}

/** The request fields that make a repeat, as JSON with sorted keys. */
const keyOf = (request: object): string =>
  JSON.stringify(Object.fromEntries(Object.entries(request).sort(([a], [b]) => (a < b ? -1 : 1))))

/**
 * The model's answer to one command and the model after it. Of the request's
 * schema rules it knows only the one the steps break (a blank memo, 400).
 */
export const predictWallet = (
  model: WalletModel,
  command: Command,
): { readonly outcome: WalletOutcome; readonly model: WalletModel } => {
  const same = (outcome: WalletOutcome) => ({ outcome, model })
  if (command._tag === "PlaceWalletTransfer") {
    if (model.status !== "ABSENT")
      return same(model.requestKey === keyOf(command.request) ? nothing : refused("MERCHANT_ORDER_NO_EXIST"))
    if (command.request.memo.trim() === "") return same(refused("INVALID_PARAMETER"))
    const { basisPoints, fixedFils } = command.feePlan
    const fee = Math.min(
      command.request.amount,
      Math.round((command.request.amount * basisPoints) / 10_000) + fixedFils,
    )
    const failCode = placementFailure(command)
    return {
      outcome: accepted,
      model: {
        status: failCode === undefined ? "CREATED" : "FAILURE",
        merchantId: command.merchantId,
        requestKey: keyOf(command.request),
        failCode,
        payerFeeAmount: fee,
      },
    }
  }
  if (model.status === "ABSENT" || model.merchantId !== command.merchantId)
    return same(refused("MERCHANT_ORDER_NO_NOT_EXIST"))
  const credited = command.outcome._tag === "Credited"
  switch (model.status) {
    case "CREATED":
      return {
        outcome: accepted,
        model: credited
          ? { ...model, status: "SUCCESS" }
          : {
              ...model,
              status: "FAILURE",
              failCode: command.outcome._tag === "NotCredited" ? command.outcome.failCode : undefined,
            },
      }
    case "SUCCESS":
      return same(credited ? nothing : refused("ORDER_SUCCESS"))
    case "FAILURE":
      return same(credited ? refused("ORDER_FAILURE") : nothing)
  }
}
