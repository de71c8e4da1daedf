/**
 * Sandbox helpers for transfers: what the banks, the card network and the
 * member directory would do, on demand, so that a merchant reaches every
 * status of every transfer order without waiting.
 *
 * - Bank transfer: `/completeBankTransfer` (SUCCESS, with the bank's
 *   reference), `/failBankTransfer` (FAILURE, with failDes).
 * - Bank card transfer: `/completeBankCardTransfer` (SUCCESS),
 *   `/failBankCardTransfer` (FAILURE), `/declineBankCardTransfer` (BANK_FAIL:
 *   the bank declined), each failure optionally with the payout returned
 *   (refundedTime); `/returnBankCardPayout` returns a failed payout later.
 * - Wallet transfer: `/startMemberDirectoryOutage` and
 *   `/endMemberDirectoryOutage`: transfers placed during an outage stay
 *   CREATED until the merchant retries them after it (SUCCESS and FAILURE
 *   follow from the beneficiary and the limits, as in production).
 * - Virtual account: `/postDeposit` (a top-up of the merchant's account,
 *   SUCCESS, FAILED or PENDING) and `/settleDeposit` (PENDING to its end).
 *
 * Orders are named by exactly one of merchantOrderNo or orderNo; each helper
 * answers the order as the query operation shows it. Every outcome is a
 * domain command, so the rules of production hold (a terminal status is
 * final: 62028 / 62002).
 */
import { BankCardTransfer } from "@mizan/card-transfer"
import {
  BoundedString,
  isForgotten,
  namesNoOrder,
  PositiveMoneyFromWire,
  RequiredString,
  Timestamp,
  withoutUndefined,
} from "@mizan/kernel"
import type { OrderName } from "@mizan/order-flows"
import { newOrderNo, onTransfer, placedOrder, transferStreamOf } from "@mizan/order-flows"
import { toWireBankCardOrder, toWireTransferToBankOrder, toWireVamDepositOrder } from "@mizan/order-views"
import {
  CardTransferResponse,
  exactlyOneOf,
  MerchantOrderNo,
  NoBizContent,
  OrderNo,
  sha256Hex,
  TransferToBankOrderResponse,
  VamDepositOrder,
  withDomainNames,
} from "@mizan/protocol"
import { BankTransfer, VamDeposit } from "@mizan/transfer"
import { Effect, Schema } from "effect"
import type { HandlerServices } from "../handlers/services.ts"
import { type ApiOperation, type Call, operation } from "../pipeline/pipeline.ts"
import { setMemberDirectoryAvailability } from "./memberDirectoryOutage.ts"

/** A request naming one order by exactly one of the merchant's number and the service's. */
const namingOrder = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct({
    merchantOrderNo: Schema.optionalKey(MerchantOrderNo),
    orderNo: Schema.optionalKey(OrderNo),
    ...fields,
  }).check(exactlyOneOf("merchantOrderNo", "orderNo"))

const BankReference = RequiredString(128)
const FailDes = RequiredString(200)

const CompleteBankTransfer = namingOrder({
  bankReference: BankReference,
  /** When the funds reached the beneficiary; now by default. */
  arrivalTime: Schema.optionalKey(Timestamp),
})
const FailBankTransfer = namingOrder({ failDes: FailDes })
const CompleteCardTransfer = namingOrder({ bankReference: BankReference })
const FailCardTransfer = namingOrder({
  failDes: FailDes,
  /** The deducted amount went back to the payer at once: the order gains refundedTime. */
  payoutReturned: Schema.optionalKey(Schema.Boolean),
})
const NamedOrder = namingOrder({})

/** A top-up as the bank reports it; remitterInfo and collectIBAN arrive in clear and are kept as digests. */
/** Decoded, the amount is named in fils as the domain names it. */
const PostDeposit = withDomainNames(
  Schema.Struct({
    amount: PositiveMoneyFromWire,
    status: VamDeposit.DepositStatus,
    /** When the bank booked it; now by default. */
    transactionTime: Schema.optionalKey(Timestamp),
    referenceNo: Schema.optionalKey(BoundedString(200)),
    remitterInfo: Schema.optionalKey(BoundedString(200)),
    senderBankCode: Schema.optionalKey(BoundedString(200)),
    depositDetails: Schema.optionalKey(BoundedString(200)),
    collectIBAN: Schema.optionalKey(BoundedString(200)),
  }),
  { amount: "amountFils" },
)
const SettleDeposit = Schema.Struct({
  orderNo: OrderNo,
  status: Schema.Literals(["SUCCESS", "FAILED"]),
  transactionTime: Schema.optionalKey(Timestamp),
})
const VamDepositResponse = Schema.Struct({ vamDepositOrder: VamDepositOrder })
const MemberDirectoryAvailability = Schema.Struct({ memberDirectoryAvailable: Schema.Boolean })

const recordBankOutcome = (call: Call, name: OrderName, outcome: BankTransfer.BankOutcome) =>
  Effect.gen(function* () {
    const merchantId = call.merchant.partnerId
    const streamId = yield* transferStreamOf(merchantId, name, "bankTransfer", BankTransfer.streamId)
    const order = yield* onTransfer(BankTransfer.aggregate, streamId, {
      _tag: "RecordBankOutcome",
      merchantId,
      now: call.now,
      outcome,
    })
    return { transferToBankOrder: toWireTransferToBankOrder(order) }
  })

/** Runs the commands in turn on a merchant's bank card transfer and answers the order after the last. */
const onCardTransfer = (
  call: Call,
  name: OrderName,
  [first, ...then]: readonly [BankCardTransfer.Command, ...ReadonlyArray<BankCardTransfer.Command>],
) =>
  Effect.gen(function* () {
    const streamId = yield* transferStreamOf(call.merchant.partnerId, name, "cardTransfer", BankCardTransfer.streamId)
    let order = yield* onTransfer(BankCardTransfer.aggregate, streamId, first)
    for (const command of then) order = yield* onTransfer(BankCardTransfer.aggregate, streamId, command)
    return { transferToBankCard: toWireBankCardOrder(order) }
  })

const recordCardOutcome = (
  call: Call,
  name: OrderName,
  outcome: BankCardTransfer.CardPayoutOutcome,
  payoutReturned = false,
) => {
  const merchantId = call.merchant.partnerId
  const recorded: BankCardTransfer.Command = { _tag: "RecordCardPayoutOutcome", merchantId, now: call.now, outcome }
  const returned: BankCardTransfer.Command = { _tag: "RecordPayoutRefund", merchantId, now: call.now }
  return onCardTransfer(call, name, payoutReturned ? [recorded, returned] : [recorded])
}

const postDeposit = (call: Call, request: typeof PostDeposit.Type) =>
  Effect.gen(function* () {
    const merchantId = call.merchant.partnerId
    const orderNo = newOrderNo(call.now, "vamDeposit")
    const { remitterInfo, collectIBAN, transactionTime, ...reported } = request
    const deposit = yield* onTransfer(
      VamDeposit.aggregate,
      VamDeposit.streamId(merchantId, orderNo),
      withoutUndefined({
        _tag: "RecordVamDeposit" as const,
        merchantId,
        now: call.now,
        deposit: withoutUndefined({
          ...reported,
          orderNo,
          transactionTime: transactionTime ?? call.now,
          remitterInfo: remitterInfo === undefined ? undefined : sha256Hex(remitterInfo),
          collectIBAN: collectIBAN === undefined ? undefined : sha256Hex(collectIBAN),
        }),
        notifyUrl: call.merchant.config.vamNotifyUrl,
      }),
    )
    return { vamDepositOrder: toWireVamDepositOrder(deposit) }
  })

/** A PENDING deposit reaches its final status; the same status again changes nothing, another is 62028 / 62002. */
const settleDeposit = (call: Call, request: typeof SettleDeposit.Type) =>
  Effect.gen(function* () {
    const merchantId = call.merchant.partnerId
    const streamId = VamDeposit.streamId(merchantId, request.orderNo)
    const pending = yield* placedOrder(VamDeposit.aggregate, streamId).pipe(
      Effect.catchTag("Rejection", () => Effect.fail(namesNoOrder("ORDER_NO_NOT_EXIST", "orderNo", "deposit"))),
    )
    const { merchantId: _merchant, notifyUrl: _notifyUrl, remitterInfo, ...reported } = pending
    const deposit = yield* onTransfer(VamDeposit.aggregate, streamId, {
      _tag: "RecordVamDeposit",
      merchantId,
      now: call.now,
      deposit: {
        ...reported,
        // A forgotten remitter has nothing left to report.
        ...(remitterInfo === undefined || isForgotten(remitterInfo) ? {} : { remitterInfo }),
        status: request.status,
        transactionTime: request.transactionTime ?? call.now,
      },
    })
    return { vamDepositOrder: toWireVamDepositOrder(deposit) }
  })

const memberDirectoryAvailability = (available: boolean) =>
  operation(
    NoBizContent,
    MemberDirectoryAvailability,
    (call) =>
      Effect.map(
        setMemberDirectoryAvailability(call.merchant.partnerId, available, call.now),
        (memberDirectoryAvailable) => ({ memberDirectoryAvailable }),
      ),
    false,
  )

export const transferSandboxOperations: Readonly<Record<string, ApiOperation<HandlerServices>>> = {
  "/completeBankTransfer": operation(
    CompleteBankTransfer,
    TransferToBankOrderResponse,
    (call, request) =>
      recordBankOutcome(call, request, {
        _tag: "Succeeded",
        bankReference: request.bankReference,
        arrivalTime: request.arrivalTime ?? call.now,
      }),
    false,
  ),
  "/failBankTransfer": operation(
    FailBankTransfer,
    TransferToBankOrderResponse,
    (call, request) => recordBankOutcome(call, request, { _tag: "Failed", failDes: request.failDes }),
    false,
  ),
  "/completeBankCardTransfer": operation(
    CompleteCardTransfer,
    CardTransferResponse,
    (call, request) => recordCardOutcome(call, request, { _tag: "Paid", bankReference: request.bankReference }),
    false,
  ),
  "/failBankCardTransfer": operation(
    FailCardTransfer,
    CardTransferResponse,
    (call, request) =>
      recordCardOutcome(call, request, { _tag: "Failed", failDes: request.failDes }, request.payoutReturned),
    false,
  ),
  "/declineBankCardTransfer": operation(
    FailCardTransfer,
    CardTransferResponse,
    (call, request) =>
      recordCardOutcome(call, request, { _tag: "BankDeclined", failDes: request.failDes }, request.payoutReturned),
    false,
  ),
  "/returnBankCardPayout": operation(
    NamedOrder,
    CardTransferResponse,
    (call, request) =>
      onCardTransfer(call, request, [
        { _tag: "RecordPayoutRefund", merchantId: call.merchant.partnerId, now: call.now },
      ]),
    false,
  ),
  "/postDeposit": operation(PostDeposit, VamDepositResponse, postDeposit, false),
  "/settleDeposit": operation(SettleDeposit, VamDepositResponse, settleDeposit, false),
  "/startMemberDirectoryOutage": memberDirectoryAvailability(false),
  "/endMemberDirectoryOutage": memberDirectoryAvailability(true),
}
