/**
 * A refused refund says which field or account is short, and by how much: the
 * merchant reads the detail to fix the request. Each refusal's exact wording,
 * beside the request one step inside the same rule, which is taken.
 *
 * The order: AED 100.00 paid at 2.5%, sharing item 1 owed 30.00 and item 2
 * owed 10.00; the payee bears the fee. What each account has left to give
 * back: payee 57.50, item 1 30.00, item 2 10.00, fee 2.50.
 */
import { fold } from "@mizan/eventsourcing"
import { fils } from "@mizan/kernel"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  aggregate as acquiringOrder,
  type Command,
  decide,
  isOrder,
  type Order,
  paymentOf,
  type RefundRequest,
  type RefundSharingParam,
} from "../src/acquiringOrder.ts"
import { accountBalances, allocateRefund } from "../src/index.ts"
import { createOrder, digest, eventsDecidedBy, payOrder, reserveRefund, sharingItem } from "../src/testing/index.ts"

const items = [sharingItem(1, 3_000), sharingItem(2, 1_000)]
const paidCommands: ReadonlyArray<Command> = [createOrder({ sharingParamList: items }), payOrder()]

const orderAfter = (...commands: ReadonlyArray<Command>): Order => {
  const state = fold(acquiringOrder, eventsDecidedBy(...commands))
  if (!isOrder(state)) throw new Error("no order")
  return state
}
const paid = orderAfter(...paidCommands)

const member = (seqId: number, amount: number, overrides: Partial<RefundSharingParam> = {}): RefundSharingParam => ({
  sharingIdentitySeqId: seqId,
  sharingIdentityType: "PHONE_NO",
  sharingIdentity: digest(seqId),
  sharingMemo: "back",
  sharingAmountFils: fils(amount),
  ...overrides,
})
const listing = (amount: number, ...members: ReadonlyArray<RefundSharingParam>): Partial<RefundRequest> => ({
  amountFils: fils(amount),
  refundSharingAmount: true,
  sharingParamList: members,
})

/** "taken", or the refusal's code and detail. */
const outcome = (order: Order, request: Partial<RefundRequest>) => {
  const decided = decide(reserveRefund(request), order)
  return Result.isFailure(decided) ? { code: decided.failure.code, detail: decided.failure.detail } : "taken"
}

describe("refund refusals name the account or member that is short, and by how much", () => {
  it.each<[string, Partial<RefundRequest>, ReturnType<typeof outcome>]>([
    ["a default refund of all the payee and the fee account have", { amountFils: fils(6_000) }, "taken"],
    [
      "a default refund a fils above it",
      { amountFils: fils(6_001) },
      {
        code: "REFUND_AMOUNT_EXCEEDED",
        detail: "the refund of AED 60.01 is more than the AED 60.00 left in the payee account and the fee account",
      },
    ],
    ["a member giving back all it has left", listing(1_000, member(2, 1_000)), "taken"],
    [
      "a member giving back a fils more than it has left",
      listing(1_001, member(2, 1_001)),
      {
        code: "REFUND_AMOUNT_EXCEEDED",
        detail: "sharingParamList[0].sharingAmountFils AED 10.01 is more than sharing member 2 has left (AED 10.00)",
      },
    ],
    [
      "a member the order does not have, second in the list",
      listing(500, member(1, 100), member(3, 100)),
      {
        code: "SHARING_MEMBER_NOT_EXIST",
        detail: "sharingParamList[1].sharingIdentitySeqId 3 is not a sharing member of the order",
      },
    ],
    [
      "a member under another identity",
      listing(500, member(1, 100, { sharingIdentity: digest(99) })),
      {
        code: "REFUND_SHARING_MEMBER_MISMATCH",
        detail: "sharingParamList[0] does not name the identity of sharing member 1 of the order",
      },
    ],
    [
      "a member under another identity type",
      listing(500, member(1, 100, { sharingIdentityType: "MEMBER_ID" })),
      {
        code: "REFUND_SHARING_MEMBER_MISMATCH",
        detail: "sharingParamList[0] does not name the identity of sharing member 1 of the order",
      },
    ],
    [
      "a member named twice",
      listing(500, member(2, 100), member(1, 100), member(2, 100)),
      { code: "INVALID_PARAMETER", detail: "sharingParamList names sharing member 2 more than once" },
    ],
    ["a list summing to the refund amount", listing(1_500, member(1, 1_000), member(2, 500)), "taken"],
    [
      "a list summing to a fils more than the refund amount",
      listing(1_500, member(1, 1_000), member(2, 501)),
      {
        code: "INVALID_PARAMETER",
        detail: "sharingParamList sharingAmountFils values sum to AED 15.01, more than amountFils (AED 15.00)",
      },
    ],
  ])("%s", (_, request, expected) => expect(outcome(paid, request)).toEqual(expected))

  it("carries the field a member's refusal is about as data, by its path in the request", () => {
    const fieldOf = (request: Partial<RefundRequest>) => {
      const decided = decide(reserveRefund(request), paid)
      return Result.isFailure(decided) ? decided.failure.field : "taken"
    }
    expect(fieldOf(listing(1_001, member(2, 1_001)))).toBe("sharingParamList[0].sharingAmountFils")
    expect(fieldOf(listing(500, member(1, 100), member(3, 100)))).toBe("sharingParamList[1].sharingIdentitySeqId")
    expect(fieldOf(listing(500, member(1, 100, { sharingIdentity: digest(99) })))).toBe("sharingParamList[0]")
    expect(fieldOf(listing(1_500, member(1, 1_000), member(2, 501)))).toBe("sharingParamList")
    // What the accounts have left is no field of the request.
    expect(fieldOf({ amountFils: fils(6_001) })).toBeUndefined()
  })

  it("measures a member against what it has left after earlier refunds", () => {
    const afterOne = orderAfter(...paidCommands, reserveRefund(listing(600, member(2, 600))))
    const next = (amount: number) => ({ ...listing(amount, member(2, amount)), refundMerchantOrderNo: "REFUND-2" })
    expect(outcome(afterOne, next(400))).toBe("taken")
    expect(outcome(afterOne, next(401))).toEqual({
      code: "REFUND_AMOUNT_EXCEEDED",
      detail: "sharingParamList[0].sharingAmountFils AED 4.01 is more than sharing member 2 has left (AED 4.00)",
    })
  })

  it("refuses a list on an order that withheld its fee from a sharing account, saying to leave the list out", () => {
    const withheld = orderAfter(createOrder({ sharingParamList: [sharingItem(1, 3_000, true)] }), payOrder())
    expect(outcome(withheld, listing(100, member(1, 100)))).toEqual({
      code: "REFUND_REJECTED",
      detail:
        "the order withheld its fee from a sharing account (withholdAndRemitFee), so only a proportional refund is allowed: leave out sharingParamList",
    })
    const decided = decide(reserveRefund(listing(100, member(1, 100))), withheld)
    expect(Result.isFailure(decided) && decided.failure.field).toBe("sharingParamList")
  })

  it("takes the listed members in sequence order whatever order the list gives", () => {
    const order = orderAfter(...paidCommands, reserveRefund(listing(1_500, member(2, 500), member(1, 1_000))))
    expect(order.refunds[0]?.allocation.sharing).toEqual([
      { sharingIdentitySeqId: 1, amountFils: 1_000 },
      { sharingIdentitySeqId: 2, amountFils: 500 },
    ])
  })
})

describe("allocateRefund on balances a caller passes: the accounts named in a sentence", () => {
  const payment = paymentOf(paid)
  if (payment === undefined) throw new Error("not paid")
  const balances = accountBalances(payment, [])
  const refused = (request: RefundRequest, given = balances) => {
    const allocated = allocateRefund(request, items, given)
    return Result.isFailure(allocated) ? allocated.failure.detail : "taken"
  }

  it("names every account, the last after 'and', when all of them are short", () =>
    expect(refused({ refundMerchantOrderNo: "R", amountFils: fils(10_001), refundSharingAmount: true })).toBe(
      "the refund of AED 100.01 is more than the AED 100.00 left in the payee account, sharing account 1, sharing account 2 and the fee account",
    ))

  it("names a single account alone", () =>
    expect(
      refused(
        { refundMerchantOrderNo: "R", amountFils: fils(5_751) },
        balances.filter((b) => b.account.kind === "payee"),
      ),
    ).toBe("the refund of AED 57.51 is more than the AED 57.50 left in the payee account"))

  it("takes all of every account, exactly", () =>
    expect(refused({ refundMerchantOrderNo: "R", amountFils: fils(10_000), refundSharingAmount: true })).toBe("taken"))
})

describe("accountBalances on a damaged history: an over-refunded account has nothing left, never less", () => {
  it("answers zero left for an account that gave back more than it received", () => {
    const payment = paymentOf(paid)
    if (payment === undefined) throw new Error("not paid")
    const [overdrawn] = orderAfter(...paidCommands, reserveRefund({ amountFils: fils(100) })).refunds
    if (overdrawn === undefined) throw new Error("no refund")
    const damaged = { ...overdrawn, allocation: { payeeFils: fils(5_751), feeFils: fils(0), sharing: [] } }
    expect(accountBalances(payment, [damaged])[0]).toEqual({
      account: { kind: "payee" },
      receivedFils: 5_750,
      refundedFils: 5_751,
      leftFils: 0,
    })
  })
})
