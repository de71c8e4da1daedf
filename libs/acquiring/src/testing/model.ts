/**
 * A reference model of one acquiring order, written from the spec and the
 * README's rules, apart from the decider: plain numbers and strings, no
 * Effect, no schema, no kernel arithmetic. For any command it predicts
 * whether the order takes it (events), decides nothing (a repeat), or refuses
 * it with which code, and what the order holds afterwards: its status, what
 * was paid, what each account received and gave back, what is left to refund.
 *
 * The numbers the spec fixes are written here as numbers (2 hours, 48 hours,
 * 180 days, half-up fees), never read from the constants of the decider, so
 * a changed constant shows up as a disagreement.
 *
 * Use it with `predictAcquiring` and compare with `viewOfOrder(state)` after
 * the real decider ran the same command (`@fast-check`'s `fc.modelRun` does
 * it over random command sequences).
 */
import type { CodeName } from "@mizan/kernel"
import type { Command, CreateOrder, PayOrder, ReserveRefund, RevokeOrder } from "../commands.ts"

const hour = 3_600_000
const day = 24 * hour
/** Create order: expiredTime defaults to requestTime + 2 hours and may be at most 48 hours after it. */
const defaultExpiry = 2 * hour
const longestExpiry = 48 * hour
/** Refund order: only for orders created within the last 180 days (day 180 included, to the millisecond). */
const refundWindow = 180 * day

const knownScenes = [
  "PAYPAGE",
  "INAPP",
  "EWALLET",
  "DYNQR",
  "QRPAY",
  "JSAPI",
  "AUTODEBIT",
  "DIRECTPAY",
  "CASHTOPUP",
  "PAYANDSIGN",
]

/** What a decider answers: events, nothing new (a repeat), or a refusal with the spec's code. */
export type Outcome =
  | { readonly kind: "accepted" }
  | { readonly kind: "nothing" }
  | { readonly kind: "refused"; readonly code: CodeName }

const accepted: Outcome = { kind: "accepted" }
const nothing: Outcome = { kind: "nothing" }
const refused = (code: CodeName): Outcome => ({ kind: "refused", code })

export type ModelRefundStatus = "PENDING" | "SUCCEEDED" | "RELEASED"

export interface ModelRefund {
  readonly cause: "REQUEST" | "REVOKE"
  readonly refundMerchantOrderNo: string
  readonly refundOrderNo: string
  /** The request as JSON, to tell a repeat from other parameters. */
  readonly requestKey: string
  readonly amount: number
  /** What the refund takes from each account, in the order of `accountNames`. */
  readonly parts: ReadonlyArray<number>
  readonly status: ModelRefundStatus
}

export interface ModelOrder {
  readonly status: "CREATED" | "PAID_SUCCESS" | "SETTLED" | "FAILURE"
  readonly revoked: boolean
  readonly requestKey: string
  readonly requestTime: number
  readonly expiredTime: number
  readonly total: number
  readonly secondaryMerchantId: string | undefined
  readonly sharing: ReadonlyArray<{
    readonly seqId: number
    readonly type: string
    readonly identity: string
    readonly amount: number
  }>
  /** The index in `sharing` of the item with withholdAndRemitFee true, or -1. */
  readonly withholdingIndex: number
  readonly changePayer: boolean
  readonly oneTimePayment: boolean
  readonly boundPayer: string | undefined
  readonly failedAttempts: ReadonlyArray<string>
  readonly payment:
    | { readonly key: string; readonly paid: number; readonly received: ReadonlyArray<number> }
    | undefined
  readonly refunds: ReadonlyArray<ModelRefund>
}

/** The model: one order stream, and the merchant it belongs to. */
export interface AcquiringModel {
  readonly merchantId: string
  readonly order: ModelOrder | undefined
}

export const emptyAcquiringModel = (merchantId: string): AcquiringModel => ({ merchantId, order: undefined })

/** What the model and the real order are compared on. */
export interface OrderView {
  readonly status: "ABSENT" | ModelOrder["status"]
  readonly revoked: boolean
  readonly paidFils: number
  readonly refundedFils: number
  readonly pendingRefundFils: number
  readonly remainRefundFils: number
  /** "payee", "sharing 1", ..., "fee": what each account received and what refunds not failed take from it. */
  readonly accounts: ReadonlyArray<{
    readonly account: string
    readonly receivedFils: number
    readonly refundedFils: number
  }>
}

const sum = (numbers: ReadonlyArray<number>): number => numbers.reduce((a, b) => a + b, 0)

/**
 * Splits `amount` over `weights` by largest remainder: each part the whole
 * fils of its exact share, then one more fils to the parts with the largest
 * fractions, ties to the earlier part. Exact for the small amounts tests use
 * (amount x weight below 2^53).
 */
export const largestRemainder = (amount: number, weights: ReadonlyArray<number>): ReadonlyArray<number> => {
  const whole = sum(weights)
  if (whole === 0) return weights.map(() => 0)
  const parts = weights.map((w) => Math.floor((amount * w) / whole))
  const fractions = weights.map((w, i) => ({ i, fraction: amount * w - (parts[i] ?? 0) * whole }))
  fractions.sort((a, b) => b.fraction - a.fraction || a.i - b.i)
  let left = amount - sum(parts)
  for (const { i } of fractions) {
    if (left === 0) break
    parts[i] = (parts[i] ?? 0) + 1
    left--
  }
  return parts
}

/** The fee of a plan on an amount: basis points rounded half up to the fils, plus the fixed part, at most the amount. */
export const modelFee = (amount: number, basisPoints: number, fixedFils: number): number =>
  Math.min(amount, Math.round((amount * basisPoints) / 10_000) + fixedFils)

/**
 * What each account receives of a payment: [payee, sharing items in list
 * order, fee account]. Sharing items are owed their amounts and the payee the
 * rest; a paid amount below the sharing total goes to the items in
 * proportion. The fee is borne by the withholding item first, then the payee,
 * then the other items in list order, each at most what it got.
 */
export const modelSplit = (
  paid: number,
  sharingAmounts: ReadonlyArray<number>,
  withholdingIndex: number,
  fee: number,
): ReadonlyArray<number> => {
  const sharingTotal = sum(sharingAmounts)
  const gross =
    paid < sharingTotal ? [0, ...largestRemainder(paid, sharingAmounts)] : [paid - sharingTotal, ...sharingAmounts]
  const bearers = [
    ...(withholdingIndex >= 0 ? [withholdingIndex + 1] : []),
    0,
    ...sharingAmounts.map((_, i) => i + 1).filter((i) => i !== withholdingIndex + 1),
  ]
  const net = [...gross]
  let feeLeft = fee
  for (const bearer of bearers) {
    const borne = Math.min(feeLeft, net[bearer] ?? 0)
    net[bearer] = (net[bearer] ?? 0) - borne
    feeLeft -= borne
  }
  return [...net, fee]
}

/** What the refunds not failed take from an account. */
const takenFrom = (order: ModelOrder, account: number): number =>
  sum(order.refunds.filter((r) => r.status !== "RELEASED").map((r) => r.parts[account] ?? 0))

/** What an account has left to give back: received minus refunds not failed. */
const leftOf = (order: ModelOrder, account: number): number =>
  Math.max(0, (order.payment?.received[account] ?? 0) - takenFrom(order, account))

const accountCount = (order: ModelOrder): number => order.sharing.length + 2

const refundedOf = (order: ModelOrder, status: ModelRefundStatus): number =>
  sum(order.refunds.filter((r) => r.status === status).map((r) => r.amount))

export const viewOfModel = (model: AcquiringModel): OrderView => {
  const { order } = model
  if (order === undefined)
    return {
      status: "ABSENT",
      revoked: false,
      paidFils: 0,
      refundedFils: 0,
      pendingRefundFils: 0,
      remainRefundFils: 0,
      accounts: [],
    }
  const paid = order.payment?.paid ?? 0
  const refunded = refundedOf(order, "SUCCEEDED")
  const pending = refundedOf(order, "PENDING")
  const names = ["payee", ...order.sharing.map((s) => `sharing ${s.seqId}`), "fee"]
  return {
    status: order.status,
    revoked: order.revoked,
    paidFils: paid,
    refundedFils: refunded,
    pendingRefundFils: pending,
    remainRefundFils: Math.max(0, paid - refunded - pending),
    accounts:
      order.payment === undefined
        ? []
        : names.map((account, i) => ({
            account,
            receivedFils: order.payment?.received[i] ?? 0,
            refundedFils: takenFrom(order, i),
          })),
  }
}

interface Prediction {
  readonly outcome: Outcome
  readonly model: AcquiringModel
}

const unchanged = (model: AcquiringModel, outcome: Outcome): Prediction => ({ outcome, model })
const withOrder = (model: AcquiringModel, order: ModelOrder): Prediction => ({
  outcome: accepted,
  model: { ...model, order },
})

/** The model's answer to one command, and the model after it. */
export const predictAcquiring = (model: AcquiringModel, command: Command): Prediction => {
  if (command._tag === "CreateOrder") return create(model, command)
  const { order } = model
  if (order === undefined || command.merchantId !== model.merchantId)
    return unchanged(model, refused("MERCHANT_ORDER_NO_NOT_EXIST"))
  switch (command._tag) {
    case "PayOrder":
      return pay(model, order, command)
    case "FailPaymentAttempt":
      return failAttempt(model, order, command.attemptId, command.payerMid, command.now)
    case "SettleOrder":
      if (order.status === "PAID_SUCCESS") return withOrder(model, { ...order, status: "SETTLED" })
      if (order.status === "SETTLED") return unchanged(model, nothing)
      return unchanged(model, refused(order.status === "CREATED" ? "ORDER_NOT_PAID" : "ORDER_FAILURE"))
    case "ExpireOrder":
      return order.status === "CREATED" && command.now >= order.expiredTime
        ? withOrder(model, { ...order, status: "FAILURE" })
        : unchanged(model, nothing)
    case "CancelOrder":
      if (order.status === "CREATED") return withOrder(model, { ...order, status: "FAILURE" })
      if (order.status === "FAILURE") return unchanged(model, nothing)
      return unchanged(model, refused(order.status === "PAID_SUCCESS" ? "ORDER_PAID" : "ORDER_SETTLED"))
    case "RevokeOrder":
      return revoke(model, order, command)
    case "ReserveRefund":
      return reserve(model, order, command)
    case "ConfirmRefund":
      return endRefund(model, order, command.refundOrderNo, "SUCCEEDED")
    case "ReleaseRefund":
      return endRefund(model, order, command.refundOrderNo, "RELEASED")
  }
}

const statusCodeOfUsedNumber: Record<ModelOrder["status"], CodeName> = {
  CREATED: "MERCHANT_ORDER_NO_EXIST",
  PAID_SUCCESS: "ORDER_PAID",
  SETTLED: "ORDER_SETTLED",
  FAILURE: "ORDER_FAILURE",
}

const create = (model: AcquiringModel, command: CreateOrder): Prediction => {
  const { request, requestTime } = command
  const requestKey = JSON.stringify(request)
  if (model.order !== undefined)
    return unchanged(
      model,
      model.order.requestKey === requestKey ? nothing : refused(statusCodeOfUsedNumber[model.order.status]),
    )
  if (!knownScenes.includes(request.paySceneCode)) return unchanged(model, refused("PAYSCENECODE_ILLEGAL"))
  const expiredTime = request.expiredTime ?? requestTime + defaultExpiry
  if (expiredTime <= requestTime) return unchanged(model, refused("EXPIREDTIME_LESS_THAN_REQUESTTIME"))
  if (expiredTime > requestTime + longestExpiry) return unchanged(model, refused("EXPIREDTIME_TOO_LATER"))
  if (request.secondaryMerchantId !== undefined && request.deviceId === undefined)
    return unchanged(model, refused("INVALID_PARAMETER"))
  const items = request.sharingParamList ?? []
  const seqIds = items.map((s) => s.sharingIdentitySeqId).sort((a, b) => a - b)
  const numbered = seqIds.every((id, i) => id === i + 1)
  const withinTotal = sum(items.map((s) => s.sharingAmountFils)) <= request.totalAmountFils
  const withholding = items.filter((s) => s.withholdAndRemitFee === true).length
  if (!numbered || !withinTotal || withholding > 1) return unchanged(model, refused("INVALID_PARAMETER"))
  return withOrder(model, {
    status: "CREATED",
    revoked: false,
    requestKey,
    requestTime,
    expiredTime,
    total: request.totalAmountFils,
    secondaryMerchantId: request.secondaryMerchantId,
    sharing: items.map((s) => ({
      seqId: s.sharingIdentitySeqId,
      type: s.sharingIdentityType,
      identity: s.sharingIdentity,
      amount: s.sharingAmountFils,
    })),
    withholdingIndex: items.findIndex((s) => s.withholdAndRemitFee === true),
    changePayer: request.paySceneParams?.changePayer !== "false",
    oneTimePayment: request.paySceneParams?.oneTimePayment === "true",
    boundPayer: undefined,
    failedAttempts: [],
    payment: undefined,
    refunds: [],
  })
}

/** Why this payer may not pay or try to pay now, if anything: expiry (62002), another payer (601). */
const closedTo = (order: ModelOrder, payer: string, now: number): CodeName | undefined => {
  if (now >= order.expiredTime) return "ORDER_FAILURE"
  if (order.changePayer && order.boundPayer !== undefined && order.boundPayer !== payer) return "RISK_FAIL"
  return undefined
}

const paymentKey = (command: PayOrder): string =>
  JSON.stringify([
    command.attemptId,
    command.paidAmountFils,
    command.payChannel,
    command.payerFeeFils,
    command.feePlan,
    command.payer,
    command.cardInfo,
  ])

const pay = (model: AcquiringModel, order: ModelOrder, command: PayOrder): Prediction => {
  if (order.status !== "CREATED") {
    if (order.payment?.key === paymentKey(command)) return unchanged(model, nothing)
    return unchanged(model, refused(order.status === "FAILURE" ? "ORDER_FAILURE" : "ORDER_PAID"))
  }
  if (order.failedAttempts.includes(command.attemptId)) return unchanged(model, refused("INVALID_PARAMETER"))
  const closed = closedTo(order, command.payer.payerMid, command.now)
  if (closed !== undefined) return unchanged(model, refused(closed))
  if (command.paidAmountFils > order.total) return unchanged(model, refused("INVALID_PARAMETER"))
  const paid = command.paidAmountFils
  const fee = modelFee(paid, command.feePlan.basisPoints, command.feePlan.fixedFils)
  const received = modelSplit(
    paid,
    order.sharing.map((s) => s.amount),
    order.withholdingIndex,
    fee,
  )
  return withOrder(model, {
    ...order,
    status: "PAID_SUCCESS",
    boundPayer: order.boundPayer ?? command.payer.payerMid,
    payment: { key: paymentKey(command), paid, received },
  })
}

const failAttempt = (
  model: AcquiringModel,
  order: ModelOrder,
  attemptId: string,
  payer: string,
  now: number,
): Prediction => {
  if (order.failedAttempts.includes(attemptId)) return unchanged(model, nothing)
  if (order.status === "FAILURE") return unchanged(model, refused("ORDER_FAILURE"))
  if (order.status !== "CREATED") return unchanged(model, refused("ORDER_PAID"))
  const closed = closedTo(order, payer, now)
  if (closed !== undefined) return unchanged(model, refused(closed))
  return withOrder(model, {
    ...order,
    status: order.oneTimePayment ? "FAILURE" : "CREATED",
    boundPayer: order.boundPayer ?? payer,
    failedAttempts: [...order.failedAttempts, attemptId],
  })
}

const active = (order: ModelOrder) => order.refunds.filter((r) => r.status !== "RELEASED")
const withinWindow = (order: ModelOrder, now: number) => now <= order.requestTime + refundWindow
const numberTaken = (order: ModelOrder, refundOrderNo: string) =>
  order.refunds.some((r) => r.refundOrderNo === refundOrderNo)

const revoke = (model: AcquiringModel, order: ModelOrder, command: RevokeOrder): Prediction => {
  if (order.revoked || order.status === "FAILURE") return unchanged(model, nothing)
  if (order.status === "CREATED") return withOrder(model, { ...order, status: "FAILURE" })
  if (active(order).length > 0) return unchanged(model, refused("ACQUIRE_ORDER_REFUNDED"))
  if (!withinWindow(order, command.now)) return unchanged(model, refused("REVOKE_REJECTED"))
  if (numberTaken(order, command.refundOrderNo)) return unchanged(model, refused("INVALID_PARAMETER"))
  const parts = Array.from({ length: accountCount(order) }, (_, i) => leftOf(order, i))
  const refund: ModelRefund = {
    cause: "REVOKE",
    refundMerchantOrderNo: "",
    refundOrderNo: command.refundOrderNo,
    requestKey: "",
    amount: sum(parts),
    parts,
    status: "PENDING",
  }
  return withOrder(model, {
    ...order,
    status: order.status === "SETTLED" ? "SETTLED" : "FAILURE",
    revoked: true,
    refunds: [...order.refunds, refund],
  })
}

/** Parts of `amount` over the accounts at `indexes`, in proportion to what each has left, or 62006. */
const proportional = (
  order: ModelOrder,
  amount: number,
  indexes: ReadonlyArray<number>,
): ReadonlyArray<number> | CodeName => {
  const left = indexes.map((i) => leftOf(order, i))
  if (amount > sum(left)) return "REFUND_AMOUNT_EXCEEDED"
  const shares = largestRemainder(amount, left)
  const parts = Array.from({ length: accountCount(order) }, () => 0)
  indexes.forEach((account, k) => {
    parts[account] = shares[k] ?? 0
  })
  return parts
}

/** The allocation of a refund request over the order's accounts, or the code that refuses it. */
const allocate = (order: ModelOrder, request: ReserveRefund["request"]): ReadonlyArray<number> | CodeName => {
  const fee = accountCount(order) - 1
  const payeeAndFee = [0, fee]
  if (request.refundSharingAmount !== true) return proportional(order, request.amountFils, payeeAndFee)
  const members = request.sharingParamList
  if (members === undefined)
    return proportional(
      order,
      request.amountFils,
      Array.from({ length: accountCount(order) }, (_, i) => i),
    )
  if (order.withholdingIndex >= 0) return "REFUND_REJECTED"
  const seqIds = members.map((m) => m.sharingIdentitySeqId)
  if (new Set(seqIds).size !== seqIds.length) return "INVALID_PARAMETER"
  for (const member of members) {
    const index = order.sharing.findIndex((s) => s.seqId === member.sharingIdentitySeqId)
    const original = order.sharing[index]
    if (original === undefined) return "SHARING_MEMBER_NOT_EXIST"
    if (original.type !== member.sharingIdentityType || original.identity !== member.sharingIdentity)
      return "REFUND_SHARING_MEMBER_MISMATCH"
    if (member.sharingAmountFils > leftOf(order, index + 1)) return "REFUND_AMOUNT_EXCEEDED"
  }
  const listed = sum(members.map((m) => m.sharingAmountFils))
  if (listed > request.amountFils) return "INVALID_PARAMETER"
  const rest = proportional(order, request.amountFils - listed, payeeAndFee)
  if (typeof rest === "string") return rest
  const parts = [...rest]
  for (const member of members)
    parts[order.sharing.findIndex((s) => s.seqId === member.sharingIdentitySeqId) + 1] = member.sharingAmountFils
  return parts
}

const reserve = (model: AcquiringModel, order: ModelOrder, command: ReserveRefund): Prediction => {
  const { request } = command
  const requestKey = JSON.stringify(request)
  const existing = order.refunds.find(
    (r) => r.cause === "REQUEST" && r.refundMerchantOrderNo === request.refundMerchantOrderNo,
  )
  if (existing !== undefined)
    return unchanged(model, existing.requestKey === requestKey ? nothing : refused("REFUND_MERCHANT_ORDER_NO_EXIST"))
  if (request.secondaryMerchantId !== undefined && request.deviceId === undefined)
    return unchanged(model, refused("INVALID_PARAMETER"))
  if (numberTaken(order, command.refundOrderNo)) return unchanged(model, refused("INVALID_PARAMETER"))
  if (order.revoked) return unchanged(model, refused("ACQUIRE_ORDER_REVOKED"))
  if (order.status === "CREATED") return unchanged(model, refused("ORDER_NOT_PAID"))
  if (order.status === "FAILURE") return unchanged(model, refused("ORDER_FAILURE"))
  if (request.secondaryMerchantId !== undefined && request.secondaryMerchantId !== order.secondaryMerchantId)
    return unchanged(model, refused("INVALID_SECONDARY_MERCHANT"))
  if (!withinWindow(order, command.now)) return unchanged(model, refused("REFUND_REJECTED"))
  const view = viewOfModel({ ...model, order })
  if (request.amountFils > view.remainRefundFils) return unchanged(model, refused("REFUND_AMOUNT_EXCEEDED"))
  const parts = allocate(order, request)
  if (typeof parts === "string") return unchanged(model, refused(parts))
  const refund: ModelRefund = {
    cause: "REQUEST",
    refundMerchantOrderNo: request.refundMerchantOrderNo,
    refundOrderNo: command.refundOrderNo,
    requestKey,
    amount: request.amountFils,
    parts,
    status: "PENDING",
  }
  return withOrder(model, { ...order, refunds: [...order.refunds, refund] })
}

const endRefund = (
  model: AcquiringModel,
  order: ModelOrder,
  refundOrderNo: string,
  end: "SUCCEEDED" | "RELEASED",
): Prediction => {
  const refund = order.refunds.find((r) => r.refundOrderNo === refundOrderNo)
  if (refund === undefined) return unchanged(model, refused("INVALID_PARAMETER"))
  if (refund.status === end) return unchanged(model, nothing)
  if (refund.status !== "PENDING")
    return unchanged(model, refused(end === "SUCCEEDED" ? "ORDER_FAILURE" : "ORDER_SUCCESS"))
  return withOrder(model, {
    ...order,
    refunds: order.refunds.map((r) => (r.refundOrderNo === refundOrderNo ? { ...r, status: end } : r)),
  })
}
