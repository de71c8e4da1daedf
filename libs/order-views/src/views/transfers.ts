/**
 * Domain state to the wire objects of the transfer API: `transferOrder`,
 * `transferToBankOrder`, the bank card transfer order, `vamDepositOrder` and
 * `fundoutInfo`, as the protocol's response schemas hold them (the Type
 * side: amounts in fils, names and numbers as SHA-256 digests). The same
 * shapes go into notifications, since a notification carries the order as
 * the query operation returns it (docs/api.md#notifications).
 */
import type { BankCardTransfer } from "@mizan/card-transfer"
import type { ResponseBodyOf, VamDepositOrder as WireVamDepositOrder } from "@mizan/protocol"
import {
  type BankTransfer,
  type CurrencyAmount,
  type FundoutQuote,
  minorUnitsOf,
  type VamDeposit,
  type WalletTransfer,
} from "@mizan/transfer"

export type WireTransferOrder = ResponseBodyOf<"/transfer/getTransferOrder">["transferOrder"]
export type WireTransferToBankOrder = ResponseBodyOf<"/transfer/getTransferToBankOrder">["transferToBankOrder"]
export type WireBankCardOrder = ResponseBodyOf<"/transfer/getTransferToBankCard">["transferToBankCard"]
export type WireFundoutInfo = ResponseBodyOf<"/transfer/calculateFundout">["fundoutInfo"]
export type { WireVamDepositOrder }

import { definedOnly } from "./defined.ts"

export { definedOnly, type WithUndefinedOptionals } from "./defined.ts"

/** Hundredths of a unit: what the wire's Money can carry (spec, Common types: 2 decimals). */
const wireMinorUnits = 2

/**
 * A payout amount in the wire's Money, whose `amount` has at most 2
 * decimals (`ForeignMoneyFromWire` reads it as hundredths of the unit).
 * Exact for currencies of 0 to 2 decimals (JPY, USD, AED); for the few with
 * 3 or 4 (KWD, BHD, CLF) the extra digits are cut, never rounded up, so the
 * figure shown never promises more than the bank pays out.
 */
export const toWireForeignMoney = (amount: CurrencyAmount) => {
  const places = minorUnitsOf(amount.currency) ?? wireMinorUnits
  const hundredths =
    places <= wireMinorUnits
      ? amount.minorUnits * 10n ** BigInt(wireMinorUnits - places)
      : amount.minorUnits / 10n ** BigInt(places - wireMinorUnits)
  return { amountMinor: Number(hundredths), currency: amount.currency }
}

export const toWireFundoutInfo = (quote: FundoutQuote): WireFundoutInfo => ({
  orderAmount: quote.orderAmount,
  fundoutAmount: toWireForeignMoney(quote.fundoutAmount),
  feeAmount: quote.feeAmount,
  networkCode: quote.networkCode,
  // The rate as quoted (libs/transfer README, "Rates and rounding"), as decimal text the wire writes as a number.
  rate: quote.rate,
})

export const toWireTransferOrder = (order: WalletTransfer.WalletTransferOrder): WireTransferOrder =>
  definedOnly<WireTransferOrder>({
    requestTime: order.requestTime,
    merchantOrderNo: order.merchantOrderNo,
    orderNo: order.orderNo,
    product: order.product,
    status: order.status,
    // A failed transfer moved nothing: no fee was charged and nothing will arrive.
    paymentInfo:
      order.status === "FAILURE" ? undefined : { payerFeeAmount: order.payerFeeFils, arrivalTime: order.arrivalTime },
    amount: order.amountFils,
    beneficiaryIdentityType: order.beneficiaryIdentityType,
    beneficiaryIdentity: order.beneficiaryIdentity,
    beneficiaryFullName: order.beneficiaryFullName,
    memo: order.memo,
    notifyUrl: order.notifyUrl,
    failCode: order.status === "FAILURE" ? order.failCode : undefined,
    failDes: order.status === "FAILURE" ? order.failDes : undefined,
  })

/**
 * When the money arrives, as PayBy's documentation answers it ("expected to
 * arrive or did arrive"): the estimate made at placement while the order is
 * CREATED, the bank's time once it arrived, and nothing once it failed,
 * since nothing will arrive. An order placed before estimates were recorded
 * has none while CREATED.
 */
const arrivalTimeOf = (order: BankTransfer.BankTransferOrder) => {
  switch (order.status) {
    case "CREATED":
      return order.expectedArrivalTime
    case "SUCCESS":
      return order.arrivalTime
    case "FAILURE":
      return undefined
  }
}

export const toWireTransferToBankOrder = (order: BankTransfer.BankTransferOrder): WireTransferToBankOrder =>
  definedOnly<WireTransferToBankOrder>({
    requestTime: order.requestTime,
    merchantOrderNo: order.merchantOrderNo,
    orderNo: order.orderNo,
    product: order.product,
    status: order.status,
    paymentInfo: definedOnly<NonNullable<WireTransferToBankOrder["paymentInfo"]>>({
      payerFeeAmount: order.payerFeeFils,
      arrivalTime: arrivalTimeOf(order),
    }),
    amount: order.amountFils,
    holderName: order.holderName,
    iban: order.iban,
    swiftCode: order.swiftCode,
    memo: order.memo,
    notifyUrl: order.notifyUrl,
    failDes: order.status === "FAILURE" ? order.failDes : undefined,
    beneficiaryAddress: order.beneficiaryAddress,
    bankReference: order.status === "SUCCESS" ? order.bankReference : undefined,
    fundoutAmount: toWireForeignMoney(order.fundoutAmount),
    rate: order.rate,
    networkCode: order.networkCode,
    countryCode: order.countryCode,
    bankName: order.bankName,
    fedwireCode: order.fedwireCode,
    intermediaryBank: order.intermediaryBank,
    branchName: order.branchName,
    beneficiaryType: order.beneficiaryType,
    purposeCode: order.purposeCode,
    accountNo: order.accountNo,
    fundoutCurrencyCode: order.fundoutCurrencyCode,
  })

/** The bank card transfer order; the card is only ever its digest (cardLast4 stays in the service). */
export const toWireBankCardOrder = (order: BankCardTransfer.BankCardTransferOrder): WireBankCardOrder =>
  definedOnly<WireBankCardOrder>({
    requestTime: order.requestTime,
    merchantOrderNo: order.merchantOrderNo,
    orderNo: order.orderNo,
    product: order.product,
    status: order.status,
    amount: order.amountFils,
    accountHolderType: order.accountHolderType,
    firstName: order.firstName,
    lastName: order.lastName,
    middleName: order.middleName,
    companyName: order.companyName,
    cardNumber: order.cardNumber,
    expiryMonth: order.expiryMonth,
    expiryYear: order.expiryYear,
    memo: order.memo,
    notifyUrl: order.notifyUrl,
    failDes: order.status === "FAILURE" || order.status === "BANK_FAIL" ? order.failDes : undefined,
    bankReference: order.status === "SUCCESS" ? order.bankReference : undefined,
    payerFeeAmount: order.payerFeeFils,
    payerFeeMemberId: order.payerFeeMemberId,
    paidTime: order.paidTime,
    refundedTime: order.status === "FAILURE" || order.status === "BANK_FAIL" ? order.refundedTime : undefined,
    partnerId: order.merchantId,
    createdTime: order.createdTime,
  })

/**
 * The deposit as the top-up notification carries it. remitterInfo and
 * collectIBAN are the digests the deposit keeps (libs/transfer: a name and
 * an IBAN are never stored in clear).
 */
export const toWireVamDepositOrder = (deposit: VamDeposit.VamDepositOrder): WireVamDepositOrder =>
  definedOnly<WireVamDepositOrder>({
    transactionTime: deposit.transactionTime,
    orderNo: deposit.orderNo,
    amount: deposit.amountFils,
    status: deposit.status,
    referenceNo: deposit.referenceNo,
    remitterInfo: deposit.remitterInfo,
    senderBankCode: deposit.senderBankCode,
    depositDetails: deposit.depositDetails,
    collectIBAN: deposit.collectIBAN,
  })
