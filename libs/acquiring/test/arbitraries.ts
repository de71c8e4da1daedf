/**
 * Random commands against one order stream, drawn from small pools of ids so
 * that sequences hit the same order, attempt and refund numbers again: repeats,
 * conflicts and out-of-order retries are the common case, not the rare one.
 */
import { dayMs, type FeePlan, fils, hourMs, type Timestamp } from "@mizan/kernel"
import fc from "fast-check"
import type { Command, OrderRequest, RefundSharingParam } from "../src/acquiringOrder.ts"
import { at, createOrder, digest, merchantId, orderShapes, payOrder, reserveRefund } from "../src/testing/index.ts"

/**
 * The kit's order shapes that make a valid order: plain, split with a
 * withholding item, split three ways, and a few fils over several accounts
 * (rounding meets every account's limit).
 */
export const orderVariants: ReadonlyArray<Partial<OrderRequest>> = orderShapes.slice(0, 4)

const feePlans: ReadonlyArray<FeePlan> = [
  { basisPoints: 250, fixedFils: fils(0) },
  { basisPoints: 0, fixedFils: fils(0) },
  { basisPoints: 100, fixedFils: fils(50) },
  { basisPoints: 10_000, fixedFils: fils(0) },
]

/** Mostly within the first hours (payment, expiry at 2 hours), sometimes up to past the 180-day refund window. */
const now = fc
  .oneof(
    { arbitrary: fc.integer({ min: 0, max: hourMs }), weight: 3 },
    { arbitrary: fc.integer({ min: hourMs, max: 3 * hourMs }), weight: 1 },
    { arbitrary: fc.integer({ min: 0, max: 200 * dayMs }), weight: 1 },
  )
  .map(at)

const refundOrderNos = ["SVC-R1", "SVC-R2", "SVC-R3", "SVC-REVOKE"]

const member: fc.Arbitrary<RefundSharingParam> = fc
  .record({
    seqId: fc.integer({ min: 1, max: 4 }),
    matches: fc.boolean(),
    amount: fc.integer({ min: 1, max: 3_000 }),
  })
  .map(({ seqId, matches, amount }) => ({
    sharingIdentitySeqId: seqId,
    sharingIdentityType: "PHONE_NO",
    sharingIdentity: digest(matches ? seqId : 99),
    sharingMemo: "back",
    sharingAmountFils: fils(amount),
  }))

const create = fc
  .record({ variant: fc.constantFrom(...orderVariants), requestTime: fc.integer({ min: 0, max: hourMs }) })
  .map(({ variant, requestTime }) => createOrder(variant, at(requestTime)))

const pay = fc
  .record({
    now,
    attemptId: fc.constantFrom("a1", "a2"),
    payerMid: fc.constantFrom("P1", "P2"),
    paidAmount: fc.oneof({ arbitrary: fc.constant(10_000), weight: 3 }, fc.constantFrom(7_000, 7, 6, 3)),
    feePlan: fc.constantFrom(...feePlans),
    withCard: fc.boolean(),
  })
  .map(({ now, attemptId, payerMid, paidAmount, feePlan, withCard }) =>
    payOrder({
      now,
      attemptId,
      paidAmountFils: fils(paidAmount),
      feePlan,
      payer: { ...payOrder().payer, payerMid },
      ...(withCard
        ? { cardInfo: { brand: "VISA", last4: "4242", cardType: "DC", expMonth: "01", expYear: "30" } }
        : {}),
    }),
  )

const failAttempt = fc
  .record({ now, attemptId: fc.constantFrom("f1", "f2", "a1"), payerMid: fc.constantFrom("P1", "P2") })
  .map(
    ({ now, attemptId, payerMid }): Command => ({
      _tag: "FailPaymentAttempt",
      merchantId,
      now,
      attemptId,
      payerMid,
      failCode: "DECLINED",
      failDes: "declined",
    }),
  )

const reserve = fc
  .record({
    now,
    refundMerchantOrderNo: fc.constantFrom("R1", "R2", "R3", "R4", "R5", "R6"),
    /** Usually the edge's fresh number for this request; sometimes one that collides. */
    refundOrderNo: fc.option(fc.constantFrom(...refundOrderNos), { nil: undefined, freq: 5 }),
    // Small amounts make rounding meet the accounts' limits: a refund of 1 fils from accounts of a few fils.
    amount: fc.oneof(
      fc.integer({ min: 1, max: 3_000 }),
      fc.integer({ min: 1, max: 4 }),
      fc.constantFrom(2_500, 10_000),
    ),
    refundSharingAmount: fc.option(fc.boolean(), { nil: undefined }),
    sharingParamList: fc.option(fc.array(member, { maxLength: 2 }), { nil: undefined }),
    secondaryMerchant: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
  })
  .map((r) =>
    reserveRefund(
      {
        refundMerchantOrderNo: r.refundMerchantOrderNo,
        amountFils: fils(r.amount),
        ...(r.refundSharingAmount === undefined ? {} : { refundSharingAmount: r.refundSharingAmount }),
        ...(r.sharingParamList === undefined ? {} : { sharingParamList: r.sharingParamList }),
        ...(r.secondaryMerchant ? { secondaryMerchantId: "SUB-1", deviceId: "POS-1" } : {}),
      },
      { now: r.now, refundOrderNo: r.refundOrderNo ?? `SVC-${r.refundMerchantOrderNo}` },
    ),
  )

const refundOrderNo = fc.constantFrom(...refundOrderNos)

export const command: fc.Arbitrary<Command> = fc.oneof(
  create,
  pay,
  failAttempt,
  now.map((now): Command => ({ _tag: "SettleOrder", merchantId, now })),
  now.map((now): Command => ({ _tag: "ExpireOrder", merchantId, now })),
  now.map((now): Command => ({ _tag: "CancelOrder", merchantId, now })),
  now.map((now): Command => ({ _tag: "RevokeOrder", merchantId, now, refundOrderNo: "SVC-REVOKE" })),
  { arbitrary: reserve, weight: 6 },
  {
    arbitrary: fc.record({ now, refundOrderNo }).map((c): Command => ({ _tag: "ConfirmRefund", merchantId, ...c })),
    weight: 3,
  },
  {
    arbitrary: fc
      .record({ now, refundOrderNo })
      .map((c): Command => ({ _tag: "ReleaseRefund", merchantId, reason: "failed", ...c })),
    weight: 2,
  },
)

/** A step that depends on the earlier ones: a verbatim retry of one, or the end of a refund one reserved. */
type FollowUp =
  | { readonly repeat: number }
  | { readonly end: number; readonly succeeded: boolean; readonly now: Timestamp }

const followUp: fc.Arbitrary<FollowUp> = fc.oneof(
  fc.nat().map((repeat) => ({ repeat })),
  fc.record({ end: fc.nat(), succeeded: fc.boolean(), now }),
)

const refundOrderNoOf = (command: Command): string | undefined =>
  command._tag === "ReserveRefund" || command._tag === "RevokeOrder" ? command.refundOrderNo : undefined

const resolve = (step: FollowUp, earlier: ReadonlyArray<Command>): Command | undefined => {
  if ("repeat" in step) return earlier[step.repeat % earlier.length]
  const refunds = earlier.flatMap((c) => refundOrderNoOf(c) ?? [])
  const refundOrderNo = refunds[step.end % refunds.length]
  if (refundOrderNo === undefined) return undefined
  return step.succeeded
    ? { _tag: "ConfirmRefund", merchantId, now: step.now, refundOrderNo }
    : { _tag: "ReleaseRefund", merchantId, now: step.now, refundOrderNo, reason: "the refund order failed" }
}

/**
 * A sequence of commands in which some steps repeat an earlier command
 * verbatim (a retry, possibly after later commands: out of order) or end a
 * refund an earlier command reserved. Most sequences start with a created and
 * paid order, so refunds get exercised.
 */
export const commandSequence: fc.Arbitrary<ReadonlyArray<Command>> = fc
  .record({
    opens: fc.constantFrom("nothing", "created", "paid", "paid", "paid"),
    steps: fc.array(fc.oneof({ arbitrary: command, weight: 3 }, { arbitrary: followUp, weight: 2 }), {
      minLength: 1,
      maxLength: 40,
    }),
    opening: fc.tuple(create, pay).map(
      ([created, paid]) =>
        [
          created,
          {
            ...paid,
            now: at(60_000),
            paidAmountFils: fils(Math.min(paid.paidAmountFils, created.request.totalAmountFils)),
          },
        ] as const,
    ),
  })
  .map(({ opens, steps, opening }) => {
    const commands: Array<Command> = opens === "paid" ? [...opening] : opens === "created" ? [opening[0]] : []
    for (const step of steps) {
      const next = "_tag" in step ? step : commands.length === 0 ? undefined : resolve(step, commands)
      if (next !== undefined) commands.push(next)
    }
    return commands
  })
