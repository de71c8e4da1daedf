import { checkRequest, feeFor, namesNoOrder, type Rejection, reject, rejectField, sameRequest } from "@mizan/kernel"
import { Equal, Result } from "effect"
import {
  BankCardTransferRequest,
  BankCardTransferTerms,
  type Command,
  type PlaceBankCardTransfer,
  type RecordCardPayoutOutcome,
  type RecordPayoutRefund,
} from "./commands.ts"
import type { Event } from "./events.ts"
import { expiryProblem } from "./expiry.ts"
import { type BankCardTransferOrder, bankCardTransferProduct, type State } from "./state.ts"

type Decision = Result.Result<ReadonlyArray<Event>, Rejection>

/** A card number is 12 to 19 digits (spec: Limits). */
export const cardNumberDigitsMin = 12
export const cardNumberDigitsMax = 19

export const decide = (command: Command, state: State): Decision => {
  switch (command._tag) {
    case "PlaceBankCardTransfer":
      return place(command, state)
    case "RecordCardPayoutOutcome":
      return recordOutcome(command, state)
    case "RecordPayoutRefund":
      return recordRefund(command, state)
  }
}

/** 400 INVALID_PARAMETER about one field of the request: the sentence starts with it. */
const invalid = (field: string, rest: string): Rejection => rejectField("INVALID_PARAMETER", field, rest)

/**
 * The spec's answers to an order number that exists already, by status:
 * 62028 ORDER_SUCCESS, 62029 ORDER_CREATED, 62002 ORDER_FAILURE (a bank's
 * decline is a failed order too).
 */
const existingOrder = (order: BankCardTransferOrder): Rejection => {
  const no = `${order.merchantOrderNo} is order ${order.orderNo}`
  switch (order.status) {
    case "SUCCESS":
      return rejectField("ORDER_SUCCESS", "merchantOrderNo", `${no}, which has succeeded`)
    case "CREATED":
      return rejectField("ORDER_CREATED", "merchantOrderNo", `${no}, which is created and in progress`)
    case "FAILURE":
    case "BANK_FAIL":
      return rejectField("ORDER_FAILURE", "merchantOrderNo", `${no}, which has failed`)
  }
}

/** The holder's names by accountHolderType; a CORPORATE name must be a plausible legal name. */
const holderProblem = ({ request, companyNameShape }: PlaceBankCardTransfer): Rejection | undefined => {
  const { firstName, lastName, middleName, companyName } = request
  if (request.accountHolderType === "INDIVIDUAL") {
    if (firstName === undefined || lastName === undefined)
      return invalid("firstName", "and lastName are required when accountHolderType is INDIVIDUAL")
    if (companyName !== undefined) return invalid("companyName", "is only for accountHolderType CORPORATE")
    return undefined
  }
  if (companyName === undefined) return invalid("companyName", "is required when accountHolderType is CORPORATE")
  if (firstName !== undefined || lastName !== undefined || middleName !== undefined)
    return reject(
      "INVALID_PARAMETER",
      "firstName, lastName and middleName are only for accountHolderType INDIVIDUAL",
      "firstName",
    )
  // The edge measures the shape; a command without it was built wrong, by no field of the request.
  if (companyNameShape === undefined) return reject("INVALID_PARAMETER", "the companyName's shape was not measured")
  if (companyNameShape !== "PLAUSIBLE")
    return invalid(
      "companyName",
      `must be a valid legal name, not ${companyNameShape.toLowerCase().replaceAll("_", " ")}`,
    )
  return undefined
}

/**
 * Placing: which answer wins, in this order.
 *
 * 1. The merchantOrderNo exists with different parameters: 62016
 *    MERCHANT_ORDER_NO_EXIST, whatever the order's status.
 * 2. It exists with identical parameters: the order's status answers,
 *    62028 / 62029 / 62002, and nothing new is decided. The spec lists these
 *    codes for this operation, and they are the only place it could use
 *    them; the merchant reads the order with "get bank card transfer order".
 * 3. The product is not enabled: 62026 PRODUCT_IS_NOT_APPLIED.
 * 4. A field breaks a rule: 400 INVALID_PARAMETER naming it.
 */
const place = (command: PlaceBankCardTransfer, state: State): Decision => {
  const { request, cardNumber, now } = command
  const terms: BankCardTransferTerms = { ...request, cardNumber: cardNumber.digest }
  if (state.status !== "ABSENT")
    return Result.fail(
      sameRequest(BankCardTransferTerms.fields, terms, state)
        ? existingOrder(state)
        : rejectField(
            "MERCHANT_ORDER_NO_EXIST",
            "merchantOrderNo",
            `${request.merchantOrderNo} is already a bank card transfer with different parameters`,
          ),
    )
  if (!command.enabledProducts.includes(bankCardTransferProduct))
    return Result.fail(reject("PRODUCT_IS_NOT_APPLIED", "bank card transfers are not enabled for this merchant"))
  const schemaProblem = checkRequest(BankCardTransferRequest, request)
  if (schemaProblem !== undefined) return Result.fail(schemaProblem)
  const holder = holderProblem(command)
  if (holder !== undefined) return Result.fail(holder)
  if (
    !cardNumber.isNumericOnly ||
    cardNumber.digitCount < cardNumberDigitsMin ||
    cardNumber.digitCount > cardNumberDigitsMax
  )
    return Result.fail(
      invalid("cardNumber", `must be ${cardNumberDigitsMin} to ${cardNumberDigitsMax} digits, numeric only`),
    )
  const expiry = expiryProblem(request.expiryYear, request.expiryMonth, now)
  if (expiry !== undefined) return Result.fail(expiry)
  return Result.succeed([
    {
      _tag: "BankCardTransferPlaced",
      merchantId: command.merchantId,
      orderNo: command.orderNo,
      requestTime: command.requestTime,
      createdTime: now,
      product: bankCardTransferProduct,
      ...terms,
      cardLast4: cardNumber.last4,
      payerFeeFils: feeFor(command.feePlan, request.amountFils),
      feePlan: command.feePlan,
      payerFeeMemberId: command.payerFeeMemberId,
      paidTime: now,
    },
  ])
}

/** The outcome recorded on a terminal order, to tell a repeat from a contradiction. */
const recordedOutcome = (order: BankCardTransferOrder) => {
  switch (order.status) {
    case "CREATED":
      return undefined
    case "SUCCESS":
      return { _tag: "Paid", bankReference: order.bankReference }
    case "BANK_FAIL":
      return { _tag: "BankDeclined", failDes: order.failDes }
    case "FAILURE":
      return { _tag: "Failed", failDes: order.failDes }
  }
}

/** The order of this merchant, or 62004: the stream id carries the merchant, so a mismatch is a wiring mistake. */
const orderOf = (state: State, merchantId: string): BankCardTransferOrder | undefined =>
  state.status === "ABSENT" || state.merchantId !== merchantId ? undefined : state

const noSuchOrder = (): Decision =>
  Result.fail(namesNoOrder("MERCHANT_ORDER_NO_NOT_EXIST", "merchantOrderNo", "bank card transfer"))

/** The bank's outcome ends a CREATED order; the same outcome again changes nothing; a terminal status is final. */
const recordOutcome = ({ merchantId, outcome, now }: RecordCardPayoutOutcome, current: State): Decision => {
  const state = orderOf(current, merchantId)
  if (state === undefined) return noSuchOrder()
  if (state.status === "CREATED")
    switch (outcome._tag) {
      case "Paid":
        return Result.succeed([{ _tag: "BankCardTransferSucceeded", bankReference: outcome.bankReference, at: now }])
      case "BankDeclined":
        return Result.succeed([{ _tag: "BankCardTransferDeclined", failDes: outcome.failDes, at: now }])
      case "Failed":
        return Result.succeed([{ _tag: "BankCardTransferFailed", failDes: outcome.failDes, at: now }])
    }
  return Equal.equals(outcome, recordedOutcome(state)) ? Result.succeed([]) : Result.fail(existingOrder(state))
}

/** Only a failed payout is refunded, once. */
const recordRefund = ({ merchantId, now }: RecordPayoutRefund, current: State): Decision => {
  const state = orderOf(current, merchantId)
  if (state === undefined) return noSuchOrder()
  switch (state.status) {
    case "CREATED":
    case "SUCCESS":
      return Result.fail(existingOrder(state))
    case "FAILURE":
    case "BANK_FAIL":
      return state.refundedTime === undefined
        ? Result.succeed([{ _tag: "BankCardTransferRefunded", refundedTime: now }])
        : Result.succeed([])
  }
}
