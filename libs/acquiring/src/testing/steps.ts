/**
 * Random steps against one acquiring order, aimed at the edges the spec
 * draws: an expiredTime exactly 48 hours after requestTime and one
 * millisecond more, a payment at the last millisecond before expiry and at
 * expiry, a refund on day 180 and one millisecond later, a refund of exactly
 * what is left and one fils more, a fee of exactly half a fils, a member list
 * that covers the whole refund. A step names its amounts and times relative
 * to the order (`commandOf` reads them off the model), so a random sequence
 * still meets every limit exactly.
 */
import { type FeePlan, fils, timestamp } from "@mizan/kernel"
import fc from "fast-check"
import type { Command, OrderRequest, RefundRequest, RefundSharingParam } from "../commands.ts"
import { createOrder, digest, merchantId, payOrder, reserveRefund, sharingItem, t0 } from "./builders.ts"
import { type AcquiringModel, viewOfModel } from "./model.ts"

const minute = 60_000
const hour = 60 * minute
const day = 24 * hour

/** The orders the steps create: plain, split with a withholding item, split three ways, a few fils, one broken. */
export const orderShapes: ReadonlyArray<Partial<OrderRequest>> = [
  {},
  {
    sharingParamList: [sharingItem(1, 3_000), sharingItem(2, 2_000, true)],
    paySceneParams: { oneTimePayment: "true" },
  },
  {
    paySceneCode: "DIRECTPAY",
    sharingParamList: [sharingItem(1, 1), sharingItem(2, 4_999), sharingItem(3, 3_333)],
    paySceneParams: { changePayer: "false" },
    secondaryMerchantId: "SUB-1",
    deviceId: "POS-1",
  },
  { totalAmountFils: fils(7), sharingParamList: [sharingItem(1, 2), sharingItem(2, 3)] },
  // Sharing amounts that sum to exactly totalAmount: the payee gets nothing but its part of no fee.
  { totalAmountFils: fils(5_000), sharingParamList: [sharingItem(1, 3_000), sharingItem(2, 2_000)] },
  // Broken split rules: a gap in the numbering, a sum above the total, two withholding items (400).
  { sharingParamList: [sharingItem(1, 100), sharingItem(3, 100)] },
  { totalAmountFils: fils(100), sharingParamList: [sharingItem(1, 101)] },
  { sharingParamList: [sharingItem(1, 100, true), sharingItem(2, 100, true)] },
]

export const feePlans: ReadonlyArray<FeePlan> = [
  { basisPoints: 250, fixedFils: fils(0) },
  { basisPoints: 0, fixedFils: fils(0) },
  { basisPoints: 100, fixedFils: fils(50) },
  { basisPoints: 10_000, fixedFils: fils(0) },
  { basisPoints: 100, fixedFils: fils(0) },
]

/** A time relative to the order (or to t0 before there is one). */
export type StepTime = "soon" | "justBeforeExpiry" | "atExpiry" | "day180" | "justAfterDay180"
/** An explicit expiredTime after requestTime, or none (the 2-hour default). */
export type ExpiryChoice = "default" | "sameTime" | "before" | "oneMs" | "48h" | "48hAndOneMs"
/** A paid amount relative to the order's total. */
export type PaidChoice = "total" | "oneBelowTotal" | "oneAboveTotal" | "halfFilsFee" | "belowSharing" | "oneFils"
/** An amount relative to what is left to refund (in all, on the payee and fee accounts, or on a member). */
export interface RelativeAmount {
  readonly of: "remaining" | "payeeAndFeeLeft" | "memberLeft" | "fixed"
  readonly delta: number
}

export type AcquiringStep =
  | {
      readonly kind: "create"
      readonly shape: number
      readonly expiry: ExpiryChoice
      readonly badScene: boolean
      readonly at: number
    }
  | {
      readonly kind: "pay"
      readonly attemptId: string
      readonly payer: string
      readonly paid: PaidChoice
      readonly feePlan: number
      readonly at: StepTime
    }
  | { readonly kind: "failAttempt"; readonly attemptId: string; readonly payer: string; readonly at: StepTime }
  | { readonly kind: "settle" | "expire" | "cancel"; readonly at: StepTime }
  | { readonly kind: "revoke"; readonly at: StepTime; readonly refundOrderNo: string }
  | {
      readonly kind: "reserve"
      readonly refundMerchantOrderNo: string
      readonly refundOrderNo: string | undefined
      readonly amount: RelativeAmount
      readonly mode: "payeeAndFee" | "allAccounts" | "memberList" | "explicitFalse"
      readonly members: ReadonlyArray<{
        readonly seqId: number
        readonly matches: boolean
        readonly amount: RelativeAmount
      }>
      readonly otherSecondaryMerchant: boolean
      readonly at: StepTime
    }
  | { readonly kind: "confirm" | "release"; readonly pick: number; readonly at: StepTime }
  /** The same command as an earlier one, verbatim: a retry, perhaps after later commands. */
  | { readonly kind: "repeat"; readonly pick: number }

const stepTime: fc.Arbitrary<StepTime> = fc.constantFrom(
  "soon",
  "soon",
  "justBeforeExpiry",
  "atExpiry",
  "day180",
  "justAfterDay180",
)
const delta = fc.constantFrom(-1, 0, 0, 1)
const relativeAmount = (of: RelativeAmount["of"]): fc.Arbitrary<RelativeAmount> =>
  of === "fixed"
    ? fc.integer({ min: 1, max: 3_000 }).map((n) => ({ of, delta: n }))
    : delta.map((d) => ({ of, delta: d }))

const create: fc.Arbitrary<Extract<AcquiringStep, { kind: "create" }>> = fc.record({
  kind: fc.constant("create" as const),
  shape: fc.nat({ max: orderShapes.length - 1 }),
  expiry: fc.constantFrom<ExpiryChoice>("default", "default", "sameTime", "before", "oneMs", "48h", "48hAndOneMs"),
  badScene: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  at: fc.constantFrom(0, 1_000),
})

const pay: fc.Arbitrary<Extract<AcquiringStep, { kind: "pay" }>> = fc.record({
  kind: fc.constant("pay" as const),
  attemptId: fc.constantFrom("a1", "a2"),
  payer: fc.constantFrom("P1", "P2"),
  paid: fc.constantFrom<PaidChoice>(
    "total",
    "total",
    "oneBelowTotal",
    "oneAboveTotal",
    "halfFilsFee",
    "belowSharing",
    "oneFils",
  ),
  feePlan: fc.nat({ max: feePlans.length - 1 }),
  at: stepTime,
})

const reserve: fc.Arbitrary<AcquiringStep> = fc.record({
  kind: fc.constant("reserve" as const),
  refundMerchantOrderNo: fc.constantFrom("R1", "R2", "R3", "R4"),
  refundOrderNo: fc.option(fc.constantFrom("SVC-R1", "SVC-REVOKE"), { nil: undefined, freq: 6 }),
  amount: fc.oneof(
    relativeAmount("remaining"),
    relativeAmount("payeeAndFeeLeft"),
    relativeAmount("fixed"),
    fc.constantFrom<RelativeAmount>({ of: "fixed", delta: 1 }, { of: "fixed", delta: 2 }),
  ),
  mode: fc.constantFrom(
    "payeeAndFee" as const,
    "allAccounts" as const,
    "memberList" as const,
    "explicitFalse" as const,
  ),
  members: fc.array(
    fc.record({
      seqId: fc.integer({ min: 1, max: 3 }),
      matches: fc.integer({ min: 0, max: 2 }).map((n) => n !== 0),
      amount: fc.oneof(relativeAmount("memberLeft"), relativeAmount("fixed")),
    }),
    { minLength: 1, maxLength: 2 },
  ),
  otherSecondaryMerchant: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  at: stepTime,
})

/** One random step; creation, payment and refunds weigh most, so most sequences reach refunds. */
export const acquiringStep: fc.Arbitrary<AcquiringStep> = fc.oneof(
  { arbitrary: create, weight: 3 },
  { arbitrary: pay, weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant("failAttempt" as const),
      attemptId: fc.constantFrom("f1", "a1"),
      payer: fc.constantFrom("P1", "P2"),
      at: stepTime,
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constantFrom("settle" as const, "expire" as const, "cancel" as const),
      at: stepTime,
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant("revoke" as const),
      at: stepTime,
      refundOrderNo: fc.constantFrom("SVC-REVOKE", "SVC-R1"),
    }),
    weight: 1,
  },
  { arbitrary: reserve, weight: 6 },
  {
    arbitrary: fc.record({
      kind: fc.constantFrom("confirm" as const, "release" as const),
      pick: fc.nat(),
      at: stepTime,
    }),
    weight: 4,
  },
)

/**
 * How a run begins: on no order, a created one, or (most often) a paid one,
 * so that the refund rules get most of the steps.
 */
export const acquiringOpening: fc.Arbitrary<ReadonlyArray<AcquiringStep>> = fc.oneof(
  fc.constant<ReadonlyArray<AcquiringStep>>([]),
  { arbitrary: create.map((step): ReadonlyArray<AcquiringStep> => [step]), weight: 2 },
  {
    arbitrary: fc
      .tuple(create, pay)
      .map(([created, paid]): ReadonlyArray<AcquiringStep> => [created, { ...paid, at: "soon" }]),
    weight: 3,
  },
)

/** The real time a step's time names, for the order as the model holds it. */
export const timeOf = (model: AcquiringModel, at: StepTime) => {
  const order = model.order
  const requestTime = order?.requestTime ?? t0
  const expiredTime = order?.expiredTime ?? t0 + 2 * hour
  switch (at) {
    case "soon":
      return timestamp(requestTime + minute)
    case "justBeforeExpiry":
      return timestamp(expiredTime - 1)
    case "atExpiry":
      return timestamp(expiredTime)
    case "day180":
      return timestamp(requestTime + 180 * day)
    case "justAfterDay180":
      return timestamp(requestTime + 180 * day + 1)
  }
}

const expiredTimeOf = (choice: ExpiryChoice, requestTime: number): Partial<OrderRequest> => {
  const after = { sameTime: 0, before: -1, oneMs: 1, "48h": 48 * hour, "48hAndOneMs": 48 * hour + 1 }
  return choice === "default" ? {} : { expiredTime: timestamp(requestTime + after[choice]) }
}

const paidAmountOf = (model: AcquiringModel, choice: PaidChoice): number => {
  const total = model.order?.total ?? 10_000
  const sharingTotal = (model.order?.sharing ?? []).reduce((a, s) => a + s.amount, 0)
  const amounts: Record<PaidChoice, number> = {
    total,
    oneBelowTotal: total - 1,
    oneAboveTotal: total + 1,
    // 2.5% of 99.80 AED is 249.5 fils: the fee of the first plan at exactly half a fils.
    halfFilsFee: total - 20,
    belowSharing: sharingTotal - 1,
    oneFils: 1,
  }
  return Math.max(1, amounts[choice])
}

const accountLeft = (model: AcquiringModel, account: string): number => {
  const found = viewOfModel(model).accounts.find((a) => a.account === account)
  return found === undefined ? 0 : found.receivedFils - found.refundedFils
}

const amountOf = (model: AcquiringModel, amount: RelativeAmount, seqId?: number): number => {
  const base = {
    remaining: () => viewOfModel(model).remainRefundFils,
    payeeAndFeeLeft: () => accountLeft(model, "payee") + accountLeft(model, "fee"),
    memberLeft: () => accountLeft(model, `sharing ${seqId}`),
    fixed: () => 0,
  }[amount.of]()
  return Math.max(1, base + amount.delta)
}

const refundRequestOf = (model: AcquiringModel, step: Extract<AcquiringStep, { kind: "reserve" }>): RefundRequest => {
  const members = step.members.map(
    (m): RefundSharingParam => ({
      sharingIdentitySeqId: m.seqId,
      sharingIdentityType: "PHONE_NO",
      sharingIdentity: digest(m.matches ? m.seqId : 99),
      sharingMemo: "back",
      sharingAmountFils: fils(amountOf(model, m.amount, m.seqId)),
    }),
  )
  const listed = members.reduce((a, m) => a + m.sharingAmountFils, 0)
  return {
    ...requestFields(step),
    amountFils: fils(
      step.mode === "memberList" ? memberListAmount(model, step.amount, listed) : amountOf(model, step.amount),
    ),
    ...(step.mode === "memberList" || step.mode === "explicitFalse" ? { sharingParamList: members } : {}),
  }
}

/**
 * The amount of a refund with a member list: the members' amounts plus a
 * rest from the payee and the fee account. A fixed 1 asks one fils less than
 * the list (400), a fixed 2 exactly the list (nothing from the payee or the
 * fee account), more asks a rest; "remaining" asks what is left in all.
 */
const memberListAmount = (model: AcquiringModel, amount: RelativeAmount, listed: number): number => {
  if (amount.of === "fixed") return Math.max(1, listed + amount.delta - 2)
  if (amount.of === "remaining") return Math.max(1, viewOfModel(model).remainRefundFils + amount.delta)
  return Math.max(1, listed + amountOf(model, amount))
}

const requestFields = (step: Extract<AcquiringStep, { kind: "reserve" }>) => {
  return {
    refundMerchantOrderNo: step.refundMerchantOrderNo,
    ...(step.mode === "allAccounts" || step.mode === "memberList" ? { refundSharingAmount: true } : {}),
    ...(step.mode === "explicitFalse" ? { refundSharingAmount: false } : {}),
    ...(step.otherSecondaryMerchant ? { secondaryMerchantId: "SUB-2", deviceId: "POS-1" } : {}),
  }
}

/** The refund order numbers the order holds, for a confirm or release step to pick from. */
const refundNumbers = (model: AcquiringModel): ReadonlyArray<string> => [
  ...(model.order?.refunds ?? []).map((r) => r.refundOrderNo),
  "SVC-UNKNOWN",
]

/**
 * The acquiring command a step stands for, on the order as the model holds
 * it; `sent` is what the run sent so far, for a repeat to pick from.
 */
export const commandOf = (model: AcquiringModel, step: AcquiringStep, sent: ReadonlyArray<Command> = []): Command => {
  switch (step.kind) {
    case "repeat":
      return sent[step.pick % Math.max(1, sent.length)] ?? commandOf(model, { kind: "settle", at: "soon" })
    case "create": {
      const requestTime = t0 + step.at
      const shape = orderShapes[step.shape] ?? {}
      return createOrder(
        { ...shape, ...expiredTimeOf(step.expiry, requestTime), ...(step.badScene ? { paySceneCode: "NOPE" } : {}) },
        timestamp(requestTime),
      )
    }
    case "pay":
      return payOrder({
        now: timeOf(model, step.at),
        attemptId: step.attemptId,
        paidAmountFils: fils(paidAmountOf(model, step.paid)),
        feePlan: feePlans[step.feePlan] ?? { basisPoints: 0, fixedFils: fils(0) },
        payer: { ...payOrder().payer, payerMid: step.payer },
      })
    case "failAttempt":
      return {
        _tag: "FailPaymentAttempt",
        merchantId,
        now: timeOf(model, step.at),
        attemptId: step.attemptId,
        payerMid: step.payer,
        failCode: "DECLINED",
        failDes: "declined",
      }
    case "settle":
      return { _tag: "SettleOrder", merchantId, now: timeOf(model, step.at) }
    case "expire":
      return { _tag: "ExpireOrder", merchantId, now: timeOf(model, step.at) }
    case "cancel":
      return { _tag: "CancelOrder", merchantId, now: timeOf(model, step.at) }
    case "revoke":
      return { _tag: "RevokeOrder", merchantId, now: timeOf(model, step.at), refundOrderNo: step.refundOrderNo }
    case "reserve":
      return reserveRefund(refundRequestOf(model, step), {
        now: timeOf(model, step.at),
        refundOrderNo: step.refundOrderNo ?? `SVC-${step.refundMerchantOrderNo}`,
      })
    case "confirm":
    case "release": {
      const numbers = refundNumbers(model)
      const refundOrderNo = numbers[step.pick % numbers.length] ?? "SVC-UNKNOWN"
      const now = timeOf(model, step.at)
      return step.kind === "confirm"
        ? { _tag: "ConfirmRefund", merchantId, now, refundOrderNo }
        : { _tag: "ReleaseRefund", merchantId, now, refundOrderNo, reason: "the refund order failed" }
    }
  }
}
