import {
  addMs,
  checkRequest,
  minuteMs,
  namesNoOrder,
  type Rejection,
  reject,
  rejectField,
  sameRequest,
} from "@mizan/kernel"
import { Equal, Result } from "effect"
import { holderNameAndAddressFit, holderNameAndAddressTooLong } from "../iban/queryIbanHolderName.ts"
import { findAbility } from "../payout/abilities.ts"
import { quoteFundout } from "../payout/quote.ts"
import {
  BankTransferRequest,
  BankTransferTerms,
  type Command,
  fundoutChoiceOf,
  type PlaceBankTransfer,
  type RecordBankOutcome,
  withDefaults,
} from "./commands.ts"
import type { Event } from "./events.ts"
import { bankTransferProduct, type State } from "./state.ts"

type Decision = Result.Result<ReadonlyArray<Event>, Rejection>

export const decide = (command: Command, state: State): Decision => {
  switch (command._tag) {
    case "PlaceBankTransfer":
      return place(command, state)
    case "RecordBankOutcome":
      return recordOutcome(command, state)
  }
}

const place = (command: PlaceBankTransfer, state: State): Decision => {
  const terms = withDefaults(command.request)
  // Idempotent by merchantOrderNo; an omitted default is the same as the default spelled out.
  if (state.status !== "ABSENT")
    return sameRequest(BankTransferTerms.fields, terms, state)
      ? Result.succeed([])
      : Result.fail(
          rejectField(
            "MERCHANT_ORDER_NO_EXIST",
            "merchantOrderNo",
            `${terms.merchantOrderNo} is already a bank transfer with different parameters`,
          ),
        )
  const invalid = checkRequest(BankTransferRequest, command.request)
  if (invalid !== undefined) return Result.fail(invalid)
  const { holderNameChars, beneficiaryAddressChars } = command.clearLengths
  if (!holderNameAndAddressFit(holderNameChars, beneficiaryAddressChars))
    return Result.fail(holderNameAndAddressTooLong())
  // 62076 unless the network and currency are an enabled ability; the quote fixes rate and fee now.
  const ability = findAbility(command.abilities, fundoutChoiceOf(command.request))
  if (Result.isFailure(ability)) return Result.fail(ability.failure)
  const quote = quoteFundout(ability.success, terms.amountFils, command.rate)
  return Result.succeed([
    {
      _tag: "BankTransferPlaced",
      merchantId: command.merchantId,
      orderNo: command.orderNo,
      requestTime: command.requestTime,
      createdTime: command.now,
      product: bankTransferProduct,
      ...terms,
      payerFeeFils: quote.feeAmount,
      feePlan: ability.success.feePlan,
      fundoutAmount: quote.fundoutAmount,
      rate: quote.rate,
      expectedArrivalTime: addMs(command.now, command.arrivalDelayMinutes * minuteMs),
    },
  ])
}

/** The bank's outcome ends a CREATED order; the same outcome again changes nothing; a terminal status is final. */
const recordOutcome = ({ merchantId, outcome, now }: RecordBankOutcome, state: State): Decision => {
  if (state.status === "ABSENT" || state.merchantId !== merchantId)
    return Result.fail(namesNoOrder("MERCHANT_ORDER_NO_NOT_EXIST", "merchantOrderNo", "bank transfer"))
  switch (state.status) {
    case "CREATED":
      return Result.succeed([
        outcome._tag === "Succeeded"
          ? {
              _tag: "BankTransferSucceeded",
              bankReference: outcome.bankReference,
              arrivalTime: outcome.arrivalTime,
              at: now,
            }
          : { _tag: "BankTransferFailed", failDes: outcome.failDes, at: now },
      ])
    case "SUCCESS": {
      const recorded = { _tag: "Succeeded", bankReference: state.bankReference, arrivalTime: state.arrivalTime }
      return Equal.equals(outcome, recorded)
        ? Result.succeed([])
        : Result.fail(reject("ORDER_SUCCESS", `bank transfer ${state.orderNo} has already succeeded`))
    }
    case "FAILURE":
      return Equal.equals(outcome, { _tag: "Failed", failDes: state.failDes })
        ? Result.succeed([])
        : Result.fail(reject("ORDER_FAILURE", `bank transfer ${state.orderNo} has already failed`))
  }
}
