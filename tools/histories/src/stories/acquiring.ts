/**
 * The story of one acquiring order: created, then paid (after failed
 * attempts, sometimes), expired, cancelled or revoked unpaid; a paid order
 * is settled, refunded in parts (refunds that complete, fail or stay
 * pending) or revoked with its full refund. Every step goes through the real
 * decider and `handleCommand`, as the gateway and the sandbox drive them.
 */

import { AcquiringOrder } from "@mizan/acquiring"
import { handleCommand, loadAggregate } from "@mizan/eventsourcing"
import { dayMs, type Fils, fils, hourMs, minuteMs, type Timestamp, timestamp, withoutUndefined } from "@mizan/kernel"
import { Effect } from "effect"
import { endRefund, placeAcquiringOrder, requestRefund, revokeOrder } from "../flows.ts"
import { after, type Next, type Step, stepLater, theEnd } from "../story.ts"
import { type Merchant, sha256, type World } from "../world.ts"

/** What the later steps of one order's story need to know. */
interface OrderStory {
  readonly world: World
  readonly merchant: Merchant
  readonly merchantOrderNo: string
  readonly streamId: string
  readonly request: AcquiringOrder.OrderRequest
  /** When the order can no longer be paid. */
  readonly expiresAt: number
  readonly payer: AcquiringOrder.PayerRecord
}

const scenes = { PAYPAGE: 0.5, DIRECTPAY: 0.2, INAPP: 0.15, DYNQR: 0.15 } as const
const subjects = ["Coffee beans", "Groceries", "Flight AUH", "Hotel 2 nts", "Books", "Electronics", "Abaya", "Perfume"]

/** An amount between `minFils` and `maxFils`, spread evenly over orders of magnitude (small orders are common). */
const logUniformFils = (world: World, minFils: number, maxFils: number): Fils =>
  fils(Math.round(Math.exp(Math.log(minFils) + world.random.next() * (Math.log(maxFils) - Math.log(minFils)))))

const sharingItems = (world: World, totalFils: number): ReadonlyArray<AcquiringOrder.SharingParam> => {
  const { random } = world
  const count = random.int(1, 2)
  const withholding = random.chance(0.3)
  return Array.from({ length: count }, (_, i) => ({
    sharingIdentitySeqId: i + 1,
    sharingIdentityType: random.pick(["PHONE_NO", "MEMBER_ID"] as const),
    sharingIdentity: sha256(`+9715${random.digits(8)}`),
    sharingMemo: random.pick(["commission", "platform share", "delivery"]),
    sharingAmountFils: fils(Math.max(1, Math.floor((totalFils * random.int(5, 30)) / 100))),
    ...(withholding && i === 0 ? { withholdAndRemitFee: true } : {}),
  }))
}

const orderRequestFor = (world: World, merchantOrderNo: string, now: number): AcquiringOrder.OrderRequest => {
  const { random } = world
  const totalAmountFils = logUniformFils(world, 500, 500_000)
  const paySceneCode = random.weighted(scenes)
  const oneTime = paySceneCode === "PAYPAGE" && random.chance(0.1)
  return {
    merchantOrderNo,
    subject: random.pick(subjects),
    totalAmountFils,
    paySceneCode,
    notifyUrl: "https://merchant.example/notify",
    ...(random.chance(0.2) ? { expiredTime: timestamp(now + random.int(15 * minuteMs, 48 * hourMs)) } : {}),
    ...(oneTime ? { paySceneParams: { oneTimePayment: "true" as const } } : {}),
    ...(random.chance(0.15) ? { sharingParamList: sharingItems(world, totalAmountFils) } : {}),
    ...(random.chance(0.3)
      ? { accessoryContent: { goodsDetail: { goodsName: "Item", quantity: String(random.int(1, 5)) } } }
      : {}),
  }
}

const payerFor = (world: World): AcquiringOrder.PayerRecord => ({
  payerMid: `P${world.random.digits(11)}`,
  mobileNumberMask: `97150***${world.random.digits(4)}`,
  deviceId: `device-${world.random.hex(12)}`,
  ipAddress: `10.${world.random.int(0, 255)}.${world.random.int(0, 255)}.${world.random.int(1, 254)}`,
})

/** The card of a DIRECTPAY payment: brand, last 4 and expiry only, never a number. */
const cardInfoFor = (world: World, now: number): AcquiringOrder.CardInfo => ({
  brand: world.random.pick(["VISA", "MASTERCARD"]),
  last4: world.random.digits(4),
  cardType: world.random.pick(["DC", "CC"] as const),
  expMonth: String(world.random.int(1, 12)).padStart(2, "0"),
  expYear: String((new Date(now).getUTCFullYear() + world.random.int(1, 4)) % 100).padStart(2, "0"),
})

const addressed = (story: OrderStory) => ({ merchantId: story.merchant.merchantId, now: story.world.now() })

/** Some moment before the order expires, at least a few seconds after now. */
const beforeExpiry = (story: OrderStory, share: number): number =>
  Math.max(5_000, Math.floor((story.expiresAt - story.world.clock.nowMs) * share))

const expire = (story: OrderStory): Step =>
  stepLater(() =>
    Effect.as(
      handleCommand(AcquiringOrder.aggregate, story.streamId, { _tag: "ExpireOrder", ...addressed(story) }),
      theEnd,
    ),
  )

const cancel = (story: OrderStory): Step =>
  stepLater(() =>
    Effect.as(
      handleCommand(AcquiringOrder.aggregate, story.streamId, { _tag: "CancelOrder", ...addressed(story) }),
      theEnd,
    ),
  )

const revoke = Effect.fnUntraced(function* (story: OrderStory) {
  const { world } = story
  const reserved = yield* revokeOrder({
    merchantId: story.merchant.merchantId,
    merchantOrderNo: story.merchantOrderNo,
    refundOrderNo: world.serviceOrderNo("refund"),
    now: world.now(),
  })
  if (!reserved) return theEnd
  // The full refund a revoke starts ends like any refund (its stream is in the REVOKE namespace).
  const outcome = world.random.chance(0.95) ? "SUCCESS" : "FAILURE"
  return [after(world.random.int(hourMs, 2 * dayMs), endOf(story, story.merchantOrderNo, "REVOKE", outcome))]
})

const endOf = (
  story: OrderStory,
  refundMerchantOrderNo: string,
  cause: "REQUEST" | "REVOKE",
  outcome: "SUCCESS" | "FAILURE",
): Step =>
  stepLater(() =>
    Effect.as(
      endRefund({
        merchantId: story.merchant.merchantId,
        refundMerchantOrderNo,
        cause,
        outcome,
        now: story.world.now(),
      }),
      theEnd,
    ),
  )

/** A partial refund of what is left: its amount is read off the order first, as a merchant's back office would. */
const refund = Effect.fnUntraced(function* (story: OrderStory) {
  const { world } = story
  const { random } = world
  const { state } = yield* loadAggregate(AcquiringOrder.aggregate, story.streamId)
  if (!AcquiringOrder.isOrder(state) || state.revoked) return theEnd
  const leftFils = AcquiringOrder.remainRefundFils(state)
  if (leftFils === 0) return theEnd
  const amountFils = random.chance(0.3) ? leftFils : fils(random.int(1, Math.max(1, Math.floor(leftFils / 2))))
  const refundMerchantOrderNo = world.merchantNumber("RF")
  const request: AcquiringOrder.RefundRequest = {
    refundMerchantOrderNo,
    amountFils,
    // A split order gives back from every account in proportion, so the payee alone never runs short (62006).
    ...withoutUndefined({ refundSharingAmount: story.request.sharingParamList === undefined ? undefined : true }),
    ...(random.chance(0.5) ? { reason: random.pick(["customer request", "damaged", "late delivery"]) } : {}),
    notifyUrl: "https://merchant.example/refund-notify",
  }
  yield* requestRefund({
    merchantId: story.merchant.merchantId,
    originMerchantOrderNo: story.merchantOrderNo,
    refundOrderNo: world.serviceOrderNo("refund"),
    request,
    now: world.now(),
  })
  const fate = random.weighted({ SUCCESS: 0.88, FAILURE: 0.08, PENDING: 0.04 })
  if (fate === "PENDING") return theEnd
  return [after(random.int(10 * minuteMs, 3 * dayMs), endOf(story, refundMerchantOrderNo, "REQUEST", fate))]
})

/** The sandbox settles paid orders; one revoked (or otherwise closed) meanwhile is left alone. */
const settle = Effect.fnUntraced(function* (story: OrderStory) {
  const { state } = yield* loadAggregate(AcquiringOrder.aggregate, story.streamId)
  if (state.status === "PAID_SUCCESS")
    yield* handleCommand(AcquiringOrder.aggregate, story.streamId, { _tag: "SettleOrder", ...addressed(story) })
  return theEnd
})

const refundCounts = { none: 0, one: 1, two: 2, three: 3 } as const

/** What happens to a paid order: settlement, and refunds or a revoke. */
const afterPayment = (story: OrderStory): ReadonlyArray<Next> => {
  const { random } = story.world
  const next: Array<Next> = []
  if (random.chance(0.9)) next.push(after(random.int(dayMs, 3 * dayMs), settle(story)))
  if (random.chance(0.07)) {
    next.push(after(random.int(hourMs, 5 * dayMs), revoke(story)))
    return next
  }
  const refunds = refundCounts[random.weighted({ none: 0.6, one: 0.25, two: 0.1, three: 0.05 })]
  for (let i = 0; i < refunds; i++) next.push(after(random.int(2 * hourMs, 40 * dayMs), refund(story)))
  return next
}

const pay = Effect.fnUntraced(function* (story: OrderStory, attemptId: string) {
  const { world } = story
  const { random } = world
  const total = story.request.totalAmountFils
  const discounted = random.chance(0.1)
  const scene = story.request.paySceneCode
  yield* handleCommand(AcquiringOrder.aggregate, story.streamId, {
    _tag: "PayOrder",
    ...addressed(story),
    attemptId,
    paidAmountFils: discounted ? fils(Math.max(1, total - random.int(0, Math.floor(total / 10)))) : total,
    payChannel: scene === "DIRECTPAY" ? "BANKCARD" : random.pick(["WALLET", "BANKCARD", "APPLEPAY"]),
    payerFeeFils: fils(random.chance(0.2) ? random.int(100, 500) : 0),
    feePlan: story.merchant.acquiringFeePlan,
    payer: story.payer,
    ...(scene === "DIRECTPAY" ? { cardInfo: cardInfoFor(world, world.clock.nowMs) } : {}),
  })
  return afterPayment(story)
})

const failAttempt = Effect.fnUntraced(function* (story: OrderStory, attemptId: string) {
  const { world } = story
  const failed = yield* handleCommand(AcquiringOrder.aggregate, story.streamId, {
    _tag: "FailPaymentAttempt",
    ...addressed(story),
    attemptId,
    payerMid: story.payer.payerMid,
    failCode: world.random.pick(["INSUFFICIENT_BALANCE", "CARD_DECLINED", "TIMEOUT"]),
    failDes: "the payment attempt did not go through",
  })
  // A one-time payment order closed on its first failure; another may try again, or let it expire.
  if (failed.state.status !== "CREATED") return theEnd
  return world.random.chance(0.7)
    ? [after(beforeExpiry(story, world.random.next() * 0.8), pay(story, `${story.merchantOrderNo}-a2`))]
    : [after(story.expiresAt - world.clock.nowMs + world.random.int(minuteMs, hourMs), expire(story))]
})

/** A new order: created with its orderNo's index in one write, as the gateway creates it, then one of the fates above. */
export const acquiringStory = Effect.fnUntraced(function* (world: World) {
  const { random } = world
  const merchant = random.pick(world.merchants)
  const merchantOrderNo = world.merchantNumber("ORD")
  const now: Timestamp = world.now()
  const request = orderRequestFor(world, merchantOrderNo, now)
  const streamId = AcquiringOrder.streamId(merchant.merchantId, merchantOrderNo)
  const orderNo = world.serviceOrderNo("acquiring")
  const created = yield* placeAcquiringOrder(streamId, {
    _tag: "CreateOrder",
    merchantId: merchant.merchantId,
    orderNo,
    requestTime: now,
    now,
    request,
  })
  const story: OrderStory = {
    world,
    merchant,
    merchantOrderNo,
    streamId,
    request,
    expiresAt: created.expiredTime,
    payer: payerFor(world),
  }
  const firstAttempt = `${merchantOrderNo}-a1`
  switch (random.weighted({ pay: 0.72, failFirst: 0.1, expire: 0.1, cancel: 0.05, revoke: 0.03 })) {
    case "pay":
      return [after(beforeExpiry(story, random.next() * 0.8), pay(story, firstAttempt))]
    case "failFirst":
      return [after(beforeExpiry(story, random.next() * 0.4), failAttempt(story, firstAttempt))]
    case "expire":
      return [after(story.expiresAt - now + random.int(minuteMs, hourMs), expire(story))]
    case "cancel":
      return [after(beforeExpiry(story, random.next() * 0.5), cancel(story))]
    case "revoke":
      return [after(beforeExpiry(story, random.next() * 0.5), revoke(story))]
  }
})
