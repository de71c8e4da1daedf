/**
 * The transfer operations (spec: 6 wallet transfer, 10 and 11 bank
 * transfer, 12 and 13 bank card transfer; the wallet query from the wire
 * conventions). Encrypted fields are decrypted here and checked on their
 * clear values where a rule needs them (IBAN format, the 140-character
 * rule, card digits, legal name); only their SHA-256 digests reach the
 * domain's events (and a card's last 4: the card travels on its command as
 * a `CardNumber`, which shows nothing but those). The clear values go on
 * only to the bank ports.
 *
 * A new order and its orderNo's index go into the store in one write
 * (`placeTransfer`, `transferToWallet`). Every step is idempotent: the
 * command (a repeat decides nothing and indexes the first order's number
 * again), the index (appended once) and the bank submission (taken once by
 * orderNo), so a request retried after a crash between two of them heals
 * the order.
 */

import { BankCardTransfer, CardNumber, type ClearCardHolder, legalNameShape } from "@mizan/card-transfer"
import { loadAggregate } from "@mizan/eventsourcing"
import { type CodeName, noFees, type Rejection, reject, type Sha256Hex, withoutUndefined } from "@mizan/kernel"
import {
  indexOrderNo,
  MemberDirectory,
  newOrderNo,
  placedOrder,
  placeTransfer,
  submitBankTransfer,
  submitCardPayout,
  transferToWallet,
} from "@mizan/order-flows"
import { toWireBankCardOrder, toWireTransferOrder, toWireTransferToBankOrder } from "@mizan/order-views"
import { type DecodedRequestOf, sha256Hex } from "@mizan/protocol"
import { BankTransfer, charCount, fundoutTermsOf, parseIban, WalletTransfer } from "@mizan/transfer"
import { Effect, Result } from "effect"
import { ApiSettings, type Merchant } from "../pipeline/apiSettings.ts"
import type { Call, Handlers } from "../pipeline/pipeline.ts"
import { digestField, revealField, revealOptional } from "../pipeline/sensitive.ts"
import { sandboxMemberDirectoryOf } from "../sandbox/memberDirectoryOutage.ts"
import type { HandlerServices } from "./services.ts"

/** The digest of an optional clear value; absent stays absent. */
const digestOfOptional = (clear: string | undefined) => (clear === undefined ? undefined : sha256Hex(clear))

const invalid = (detail: string) => Effect.fail(reject("INVALID_PARAMETER", detail))

// Wallet transfer (spec: 6).

const walletPath = "/transfer/placeTransferOrder"

/** The merchant's member directory: in the sandbox, subject to the sandbox's outage switch. */
const memberDirectoryFor = (merchantId: string) =>
  Effect.gen(function* () {
    const gateway = yield* ApiSettings
    const directory = yield* MemberDirectory
    return gateway.mode === "sandbox" ? yield* sandboxMemberDirectoryOf(merchantId, directory) : directory
  })

/**
 * When the member directory does not answer, the transfer went as far as
 * it could: an order it placed stays CREATED and is the answer (the
 * merchant's retry books the credit later); if it could not even look the
 * beneficiary up, nothing was recorded and the merchant retries. An order
 * found here may be an earlier request's, placed by a store that appends
 * in turn and cut short before its index: it is indexed again, as a repeat
 * that reached the directory would have.
 */
const walletOrderSoFar = (merchantId: string, streamId: string) =>
  Effect.gen(function* () {
    const { state } = yield* loadAggregate(WalletTransfer.aggregate, streamId)
    if (state.status === "ABSENT")
      return yield* Effect.fail(
        reject("SERVICE_TIMEOUT", "the member directory did not answer: nothing was recorded, retry the request"),
      )
    yield* indexOrderNo(merchantId, state.orderNo, "walletTransfer", streamId)
    return state
  })

const placeWalletTransfer = (call: Call, request: DecodedRequestOf<typeof walletPath>) =>
  Effect.gen(function* () {
    const merchantId = call.merchant.partnerId
    const beneficiaryIdentity = yield* digestField(walletPath, "beneficiaryIdentity", request.beneficiaryIdentity)
    const beneficiaryFullName =
      request.beneficiaryFullName === undefined
        ? undefined
        : yield* digestField(walletPath, "beneficiaryFullName", request.beneficiaryFullName)
    const streamId = WalletTransfer.streamId(merchantId, request.merchantOrderNo)
    const directory = yield* memberDirectoryFor(merchantId)
    const order = yield* transferToWallet({
      merchantId,
      orderNo: newOrderNo(call.now, "walletTransfer"),
      requestTime: call.requestTime,
      now: call.now,
      request: withoutUndefined({ ...request, beneficiaryIdentity, beneficiaryFullName }),
      feePlan: call.merchant.config.fees?.walletTransfer ?? noFees,
    }).pipe(
      Effect.provideService(MemberDirectory, directory),
      Effect.catchTag("MemberDirectoryUnavailable", () => walletOrderSoFar(merchantId, streamId)),
    )
    return { transferOrder: toWireTransferOrder(order) }
  })

// Bank transfer (spec: 10, 11; "Bank transfer order").

const bankPath = "/transfer/placeTransferToBankOrder"

/** The order keeps a holder name of at most 100 characters (spec: Bank transfer order, holderName). */
const bankHolderNameMaxChars = 100

/** The clear beneficiary: checked here, digested for the command, handed to the bank as it is. */
const clearBeneficiaryOf = (request: DecodedRequestOf<typeof bankPath>) =>
  Effect.gen(function* () {
    const holderName = yield* revealField(bankPath, "holderName", request.holderName)
    if (holderName.trim() === "") return yield* invalid("bizContent.holderName must not be empty")
    if (charCount(holderName) > bankHolderNameMaxChars)
      return yield* invalid(`bizContent.holderName must be at most ${bankHolderNameMaxChars} characters`)
    const iban = parseIban(yield* revealField(bankPath, "iban", request.iban))
    if (Result.isFailure(iban)) return yield* Effect.fail(iban.failure)
    const beneficiaryAddress = yield* revealOptional(bankPath, "beneficiaryAddress", request.beneficiaryAddress)
    const accountNo = yield* revealOptional(bankPath, "accountNo", request.accountNo)
    return withoutUndefined({
      holderName,
      iban: iban.success,
      beneficiaryAddress,
      accountNo,
    }) satisfies BankTransfer.ClearBeneficiary
  })

/**
 * The network's arrival delay. The configuration gives one to every network
 * a merchant pays out through (`decodeConfig`), and the merchant's abilities
 * were found first, so a network without one is a defect, not a refusal.
 * Untraced, as the handlers' other steps: a span would say nothing here.
 */
const arrivalDelayMinutesOf = Effect.fnUntraced(function* (networkCode: string) {
  const { bankTransferArrivalMinutes } = yield* ApiSettings
  const minutes = Object.hasOwn(bankTransferArrivalMinutes, networkCode)
    ? bankTransferArrivalMinutes[networkCode]
    : undefined
  if (minutes === undefined)
    return yield* Effect.die(new Error(`networkCode ${networkCode} has no arrival delay in the configuration`))
  return minutes
})

const placeBankTransferCommand = (
  call: Call,
  request: DecodedRequestOf<typeof bankPath>,
  beneficiary: BankTransfer.ClearBeneficiary,
) =>
  Effect.gen(function* () {
    const merchantId = call.merchant.partnerId
    const choice = BankTransfer.fundoutChoiceOf(request)
    const terms = yield* fundoutTermsOf(merchantId, choice)
    const arrivalDelayMinutes = yield* arrivalDelayMinutesOf(choice.networkCode)
    // The encrypted fields travel on as the digests of the clear values checked above.
    const {
      holderName: _holderName,
      iban: _iban,
      beneficiaryAddress: _address,
      accountNo: _accountNo,
      ...kept
    } = request
    const command: BankTransfer.PlaceBankTransfer = {
      _tag: "PlaceBankTransfer",
      merchantId,
      orderNo: newOrderNo(call.now, "bankTransfer"),
      requestTime: call.requestTime,
      now: call.now,
      request: withoutUndefined({
        ...kept,
        holderName: sha256Hex(beneficiary.holderName),
        iban: sha256Hex(beneficiary.iban),
        beneficiaryAddress: digestOfOptional(beneficiary.beneficiaryAddress),
        accountNo: digestOfOptional(beneficiary.accountNo),
      }),
      // Digests cannot tell how long a name was: the 140-character rule travels as measured lengths.
      clearLengths: {
        holderNameChars: charCount(beneficiary.holderName),
        beneficiaryAddressChars: charCount(beneficiary.beneficiaryAddress ?? ""),
      },
      abilities: terms.abilities,
      rate: terms.rate,
      arrivalDelayMinutes,
    }
    return command
  })

const placeBankTransfer = (call: Call, request: DecodedRequestOf<typeof bankPath>) =>
  Effect.gen(function* () {
    const merchantId = call.merchant.partnerId
    const beneficiary = yield* clearBeneficiaryOf(request)
    const command = yield* placeBankTransferCommand(call, request, beneficiary)
    const streamId = BankTransfer.streamId(merchantId, request.merchantOrderNo)
    const order = yield* placeTransfer(BankTransfer.aggregate, streamId, command, "bankTransfer")
    if (order.status === "CREATED") yield* submitBankTransfer(order, beneficiary, call.traceCode)
    return { transferToBankOrder: toWireTransferToBankOrder(order) }
  })

// Bank card transfer (spec: 12, 13; "Bank card transfer order").

const cardPath = "/transfer/placeTransferToBankCard"

const cardHolderNames = ["firstName", "middleName", "lastName", "companyName"] as const
type CardHolderName = (typeof cardHolderNames)[number]

/** The products enabled for the merchant (configuration uses the domain's names: TRANSFER_TO_BANK_CARD). */
const enabledProductsOf = (merchant: Merchant) => merchant.config.products ?? []

/** The holder's clear names, each decrypted; a name that is sent must say something. */
const clearHolderOf = (request: DecodedRequestOf<typeof cardPath>) =>
  Effect.gen(function* () {
    const holder: Partial<Record<CardHolderName, string>> = {}
    for (const name of cardHolderNames) {
      const clear = yield* revealOptional(cardPath, name, request[name])
      if (clear === undefined) continue
      if (clear.trim() === "") return yield* invalid(`bizContent.${name} must not be empty`)
      holder[name] = clear
    }
    return holder as ClearCardHolder
  })

const placeCardTransferCommand = (
  call: Call,
  request: DecodedRequestOf<typeof cardPath>,
  cardNumber: CardNumber,
  holder: ClearCardHolder,
) =>
  Effect.gen(function* () {
    const expiryYear = yield* revealField(cardPath, "expiryYear", request.expiryYear)
    const expiryMonth = yield* revealField(cardPath, "expiryMonth", request.expiryMonth)
    const nameDigests: Partial<Record<CardHolderName, Sha256Hex>> = Object.fromEntries(
      Object.entries(holder).map(([name, clear]) => [name, sha256Hex(clear)]),
    )
    const command: BankCardTransfer.PlaceBankCardTransfer = {
      _tag: "PlaceBankCardTransfer",
      merchantId: call.merchant.partnerId,
      orderNo: newOrderNo(call.now, "cardTransfer"),
      requestTime: call.requestTime,
      now: call.now,
      request: {
        merchantOrderNo: request.merchantOrderNo,
        accountHolderType: request.accountHolderType,
        ...nameDigests,
        amountFils: request.amountFils,
        ...withoutUndefined({ memo: request.memo, notifyUrl: request.notifyUrl }),
        expiryYear,
        expiryMonth,
      },
      // The decider checks digits, expiry and the legal-name shape; the clear values stay here.
      cardNumber,
      ...withoutUndefined({
        companyNameShape: holder.companyName === undefined ? undefined : legalNameShape(holder.companyName),
      }),
      enabledProducts: enabledProductsOf(call.merchant),
      feePlan: call.merchant.config.fees?.bankCardTransfer ?? noFees,
      payerFeeMemberId: call.merchant.config.memberId ?? call.merchant.partnerId,
    }
    return command
  })

/** The answers to a resubmitted order (62029, 62028, 62002): the order exists with these very parameters. */
const repeatAnswers: ReadonlySet<CodeName> = new Set(["ORDER_CREATED", "ORDER_SUCCESS", "ORDER_FAILURE"])

const placeCardTransfer = (call: Call, request: DecodedRequestOf<typeof cardPath>) =>
  Effect.gen(function* () {
    const merchantId = call.merchant.partnerId
    const clearNumber = yield* revealField(cardPath, "cardNumber", request.cardNumber)
    const cardNumber = new CardNumber(clearNumber, sha256Hex(clearNumber))
    const holder = yield* clearHolderOf(request)
    const command = yield* placeCardTransferCommand(call, request, cardNumber, holder)
    const streamId = BankCardTransfer.streamId(merchantId, request.merchantOrderNo)
    const submit = (order: BankCardTransfer.BankCardTransferOrder) =>
      order.status === "CREATED" ? submitCardPayout(order, cardNumber, holder, call.traceCode) : Effect.void
    /** A resubmission is refused, so nothing indexed it: index and submit again, which heals a crash between the steps. */
    const completeResubmitted = Effect.flatMap(placedOrder(BankCardTransfer.aggregate, streamId), (order) =>
      Effect.andThen(indexOrderNo(merchantId, order.orderNo, "cardTransfer", streamId), submit(order)),
    )
    const order = yield* placeTransfer(BankCardTransfer.aggregate, streamId, command, "cardTransfer").pipe(
      Effect.catchTag("Rejection", (rejection: Rejection) =>
        repeatAnswers.has(rejection.code)
          ? Effect.andThen(completeResubmitted, Effect.fail(rejection))
          : Effect.fail(rejection),
      ),
    )
    yield* submit(order)
    return { transferToBankCard: toWireBankCardOrder(order) }
  })

export const transferHandlers: Pick<
  Handlers<HandlerServices>,
  | "/transfer/placeTransferOrder"
  | "/transfer/getTransferOrder"
  | "/transfer/placeTransferToBankOrder"
  | "/transfer/getTransferToBankOrder"
  | "/transfer/placeTransferToBankCard"
  | "/transfer/getTransferToBankCard"
> = {
  "/transfer/placeTransferOrder": placeWalletTransfer,

  "/transfer/getTransferOrder": (call, request) =>
    Effect.map(
      placedOrder(WalletTransfer.aggregate, WalletTransfer.streamId(call.merchant.partnerId, request.merchantOrderNo)),
      (order) => ({ transferOrder: toWireTransferOrder(order) }),
    ),

  "/transfer/placeTransferToBankOrder": placeBankTransfer,

  "/transfer/getTransferToBankOrder": (call, request) =>
    Effect.map(
      placedOrder(BankTransfer.aggregate, BankTransfer.streamId(call.merchant.partnerId, request.merchantOrderNo)),
      (order) => ({ transferToBankOrder: toWireTransferToBankOrder(order) }),
    ),

  "/transfer/placeTransferToBankCard": placeCardTransfer,

  "/transfer/getTransferToBankCard": (call, request) =>
    Effect.map(
      placedOrder(
        BankCardTransfer.aggregate,
        BankCardTransfer.streamId(call.merchant.partnerId, request.merchantOrderNo),
      ),
      (order) => ({ transferToBankCard: toWireBankCardOrder(order) }),
    ),
}
