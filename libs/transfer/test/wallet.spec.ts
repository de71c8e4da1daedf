import { test } from "@fast-check/vitest"
import { deciderSpec } from "@mizan/eventsourcing/testing"
import { type FeePlan, fils } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { WalletTransfer } from "../src/index.ts"
import { placeWalletTransfer } from "../src/testing/index.ts"
import { at, eventsOf, runCommands, sha256, withRetries } from "./support.ts"

const { aggregate, invariants, streamId } = WalletTransfer
const spec = deciderSpec(aggregate)

const now = at("2026-03-01T10:00:00Z")
const later = at("2026-03-01T10:00:05Z")
const fee: FeePlan = { basisPoints: 100, fixedFils: fils(50) }
const phone = sha256("+971501234567")
const fullName = sha256("AISHA AL MANSOURI")

const place = (
  request: Partial<WalletTransfer.WalletTransferRequest> = {},
  beneficiary: WalletTransfer.Beneficiary = { _tag: "MemberFound", fullName, balanceFils: fils(500_000) },
): WalletTransfer.PlaceWalletTransfer =>
  placeWalletTransfer({ now, beneficiaryIdentity: phone, beneficiary, feePlan: fee, request })

const placedBy = (command: WalletTransfer.PlaceWalletTransfer): WalletTransfer.WalletTransferPlaced => {
  const decided = aggregate.decide(command, aggregate.initialState)
  return Result.getOrThrow(decided)[0] as WalletTransfer.WalletTransferPlaced
}

const settle = (outcome: WalletTransfer.CreditOutcome): WalletTransfer.SettleWalletTransfer => ({
  _tag: "SettleWalletTransfer",
  merchantId: "M1",
  now: later,
  outcome,
})

const failed = (failCode: WalletTransfer.WalletFailCode, when = now): WalletTransfer.WalletTransferFailed => ({
  _tag: "WalletTransferFailed",
  failCode,
  failDes: WalletTransfer.walletFailDescription[failCode],
  at: when,
})

describe("placing a wallet transfer", () => {
  it("records the order CREATED with the fee from the plan and an estimated arrival", () =>
    spec
      .given([])
      .when(place())
      .thenEmits([
        {
          _tag: "WalletTransferPlaced",
          merchantId: "M1",
          orderNo: "T0001",
          requestTime: now,
          createdTime: now,
          product: "TRANSFER_TO_WALLET",
          merchantOrderNo: "W-1",
          beneficiaryIdentityType: "PHONE_NO",
          beneficiaryIdentity: phone,
          amountFils: fils(100_000),
          memo: "salary",
          // 1% of 1,000.00 AED plus 0.50 AED.
          payerFeeFils: fils(1_050),
          arrivalTime: now,
          beneficiaryBalanceFils: fils(500_000),
        },
      ]))

  it("accepts exactly AED 10,000", () =>
    spec
      .given([])
      .when(place({ amountFils: fils(1_000_000) }))
      .thenState((state) => expect(state.status).toBe("CREATED")))

  it("fails a transfer above AED 10,000 with TRANSFER_AMOUNT_LIMIT_EXCEEDED", () => {
    const command = place({ amountFils: fils(1_000_001) })
    spec
      .given([])
      .when(command)
      .thenEmits([placedBy(command), failed("TRANSFER_AMOUNT_LIMIT_EXCEEDED")])
  })

  it("fails a transfer to an identity no member holds with BENEFICIARY_NOT_FOUND", () => {
    const command = place({}, { _tag: "MemberNotFound" })
    spec
      .given([])
      .when(command)
      .thenEmits([placedBy(command), failed("BENEFICIARY_NOT_FOUND")])
  })

  it("fails a transfer whose full name differs from the member's record with BENEFICIARY_NAME_MISMATCH", () => {
    const command = place({ beneficiaryFullName: sha256("AISHA AL MANSOORI") })
    spec
      .given([])
      .when(command)
      .thenEmits([placedBy(command), failed("BENEFICIARY_NAME_MISMATCH")])
  })

  it("passes a transfer whose full name matches the member's record", () =>
    spec
      .given([])
      .when(place({ beneficiaryFullName: fullName }))
      .thenState((state) => expect(state.status).toBe("CREATED")))

  it("checks no name when none is given", () =>
    spec
      .given([])
      .when(place({}, { _tag: "MemberFound", fullName: sha256("SOMEONE ELSE"), balanceFils: fils(0) }))
      .thenState((state) => expect(state.status).toBe("CREATED")))

  it("accepts a transfer that takes the beneficiary to exactly AED 20,000", () =>
    spec
      .given([])
      .when(place({ amountFils: fils(100_000) }, { _tag: "MemberFound", fullName, balanceFils: fils(1_900_000) }))
      .thenState((state) => expect(state.status).toBe("CREATED")))

  it("fails a transfer that would take the beneficiary above AED 20,000 with BENEFICIARY_BALANCE_LIMIT_EXCEEDED", () => {
    const command = place(
      { amountFils: fils(100_001) },
      { _tag: "MemberFound", fullName, balanceFils: fils(1_900_000) },
    )
    spec
      .given([])
      .when(command)
      .thenEmits([placedBy(command), failed("BENEFICIARY_BALANCE_LIMIT_EXCEEDED")])
  })

  it.each([
    ["a zero amount", { amountFils: fils(0) }, "amountFils must be greater than 0"],
    ["an empty memo", { memo: " " }, "memo must not be empty"],
    ["a memo above 200 characters", { memo: "m".repeat(201) }, "memo must be at most 200 characters"],
    ["a notifyUrl above 200 characters", { notifyUrl: "u".repeat(201) }, "notifyUrl must be at most 200"],
    ["an identity that is not a digest", { beneficiaryIdentity: "+971501234567" }, "beneficiaryIdentity"],
  ])("refuses %s with 400 INVALID_PARAMETER naming the field", (_, request, message) => {
    const decided = aggregate.decide(
      place(request as Partial<WalletTransfer.WalletTransferRequest>),
      aggregate.initialState,
    )
    expect(Result.isFailure(decided) && decided.failure).toMatchObject({ code: "INVALID_PARAMETER" })
    expect(Result.isFailure(decided) && decided.failure.detail).toContain(message)
  })

  it("answers a repeat with the same parameters with the order as it stands, even with a fresh orderNo", () =>
    spec
      .given([placedBy(place())])
      .when({ ...place(), orderNo: "T0002", requestTime: later, now: later })
      .thenNothing())

  it("refuses the same merchantOrderNo with different parameters with 62016", () =>
    spec
      .given([placedBy(place())])
      .when(place({ memo: "bonus" }))
      .thenRejects({ code: "MERCHANT_ORDER_NO_EXIST" }))

  it("answers a repeat of a failed transfer with nothing new", () => {
    const command = place({ amountFils: fils(1_000_001) })
    spec
      .given([placedBy(command), failed("TRANSFER_AMOUNT_LIMIT_EXCEEDED")])
      .when(command)
      .thenNothing()
  })
})

describe("settling a wallet transfer with the credit's outcome", () => {
  const created = [placedBy(place())]
  const succeeded: WalletTransfer.WalletTransferSucceeded = { _tag: "WalletTransferSucceeded", at: later }

  it("moves a credited transfer to SUCCESS", () =>
    spec
      .given(created)
      .when(settle({ _tag: "Credited" }))
      .thenEmits([succeeded]))

  it("moves a transfer the directory refused to FAILURE with its failCode", () =>
    spec
      .given(created)
      .when(settle({ _tag: "NotCredited", failCode: "BENEFICIARY_BALANCE_LIMIT_EXCEEDED" }))
      .thenEmits([failed("BENEFICIARY_BALANCE_LIMIT_EXCEEDED", later)]))

  it("refuses to settle a transfer that was never placed with 62004", () =>
    spec
      .given([])
      .when(settle({ _tag: "Credited" }))
      .thenRejects({ code: "MERCHANT_ORDER_NO_NOT_EXIST" }))

  it("refuses to settle another merchant's transfer with 62004", () =>
    spec
      .given(created)
      .when({ ...settle({ _tag: "Credited" }), merchantId: "M2" })
      .thenRejects({ code: "MERCHANT_ORDER_NO_NOT_EXIST" }))

  it("answers the same outcome again with nothing new", () => {
    spec
      .given([...created, succeeded])
      .when(settle({ _tag: "Credited" }))
      .thenNothing()
    spec
      .given([...created, failed("BENEFICIARY_NOT_FOUND", later)])
      .when(settle({ _tag: "NotCredited", failCode: "BENEFICIARY_NOT_FOUND" }))
      .thenNothing()
  })

  it("keeps a SUCCESS final: a refusal after it answers 62028", () =>
    spec
      .given([...created, succeeded])
      .when(settle({ _tag: "NotCredited", failCode: "BENEFICIARY_NOT_FOUND" }))
      .thenRejects({ code: "ORDER_SUCCESS" }))

  it("keeps a FAILURE final: a credit after it answers 62002", () =>
    spec
      .given([...created, failed("BENEFICIARY_NOT_FOUND", later)])
      .when(settle({ _tag: "Credited" }))
      .thenRejects({ code: "ORDER_FAILURE" }))
})

describe("wallet transfer invariants", () => {
  it("holds on every state the decider reaches in the examples above", () => {
    const state = [placedBy(place())].reduce(aggregate.evolve, aggregate.initialState)
    expect(invariants(state)).toEqual([])
  })

  it("reports a SUCCESS above AED 10,000 or taking the beneficiary above AED 20,000", () => {
    const order = [placedBy(place())].reduce(aggregate.evolve, aggregate.initialState)
    if (order.status === "ABSENT") throw new Error("placed")
    expect(invariants({ ...order, status: "SUCCESS", amountFils: fils(1_000_001) })).toHaveLength(1)
    expect(invariants({ ...order, status: "SUCCESS", beneficiaryBalanceFils: fils(1_950_000) })).toHaveLength(1)
    expect(invariants({ ...order, status: "SUCCESS", beneficiaryBalanceFils: undefined as never })).toHaveLength(1)
  })
})

describe("wallet transfer stream ids", () => {
  test.prop([fc.tuple(fc.string(), fc.string()), fc.tuple(fc.string(), fc.string())], { numRuns: 200 })(
    "give different orders different streams, even when ids contain the separator",
    ([m1, o1], [m2, o2]) => {
      fc.pre(m1 !== m2 || o1 !== o2)
      expect(streamId(m1, o1)).not.toBe(streamId(m2, o2))
    },
  )

  it("keeps ids apart that a naive join would merge", () => {
    expect(streamId("M1/W", "1")).not.toBe(streamId("M1", "W/1"))
    expect(streamId("M1%2FW", "1")).not.toBe(streamId("M1/W", "1"))
  })
})

// Random histories: one order, placed with one of a few parameter sets, settled, retried.
const names = [fullName, sha256("OTHER NAME")]
const placeArbitrary = fc
  .record({
    variant: fc.constantFrom("W-1", "W-1", "W-1b"),
    amount: fc.integer({ min: 1, max: 1_200_000 }),
    givenName: fc.option(fc.constantFrom(...names), { nil: undefined }),
    found: fc.boolean(),
    recordName: fc.constantFrom(...names),
    balance: fc.integer({ min: 0, max: 2_100_000 }),
    orderNo: fc.constantFrom("T1", "T2"),
  })
  .map(({ variant, amount, givenName, found, recordName, balance, orderNo }) => ({
    ...place(
      {
        amountFils: fils(amount),
        memo: variant,
        ...(givenName === undefined ? {} : { beneficiaryFullName: givenName }),
      },
      found ? { _tag: "MemberFound", fullName: recordName, balanceFils: fils(balance) } : { _tag: "MemberNotFound" },
    ),
    orderNo,
  }))
const settleArbitrary = fc
  .constantFrom<WalletTransfer.CreditOutcome>(
    { _tag: "Credited" },
    { _tag: "NotCredited", failCode: "BENEFICIARY_BALANCE_LIMIT_EXCEEDED" },
  )
  .map(settle)
const history = fc
  .array(fc.oneof({ weight: 2, arbitrary: placeArbitrary }, { weight: 1, arbitrary: settleArbitrary }), {
    minLength: 1,
    maxLength: 8,
  })
  .chain((commands) =>
    fc
      .array(fc.boolean(), { minLength: commands.length, maxLength: commands.length })
      .map((retried) => withRetries<WalletTransfer.Command>(commands, retried)),
  )

const isTerminal = (status: string) => status === "SUCCESS" || status === "FAILURE"

describe("wallet transfer properties", () => {
  test.prop([history], { numRuns: 150 })("keeps every invariant after every step of any history", (commands) => {
    for (const step of runCommands(aggregate, commands)) expect(invariants(step.after)).toEqual([])
  })

  test.prop([history], { numRuns: 150 })("never moves a SUCCESS or FAILURE to another status", (commands) => {
    for (const step of runCommands(aggregate, commands))
      if (isTerminal(step.before.status)) expect(step.after.status).toBe(step.before.status)
  })

  test.prop([history], { numRuns: 150 })("decides nothing new for a command repeated right after it", (commands) => {
    for (const step of runCommands(aggregate, commands)) {
      const again = aggregate.decide(step.command, step.after)
      expect(Result.isSuccess(again) ? again.success : []).toEqual([])
    }
  })

  test.prop([history], { numRuns: 150 })(
    "lets a transfer succeed only within AED 10,000, to a found member, matching name, within AED 20,000",
    (commands) => {
      const steps = runCommands(aggregate, commands)
      const placing = steps.find(
        (step) => step.command._tag === "PlaceWalletTransfer" && Result.isSuccess(step.decided),
      )
      const final = steps.at(-1)?.after
      if (placing === undefined || final?.status !== "SUCCESS") return
      const { request, beneficiary } = placing.command as WalletTransfer.PlaceWalletTransfer
      expect(request.amountFils).toBeLessThanOrEqual(1_000_000)
      expect(beneficiary._tag).toBe("MemberFound")
      if (beneficiary._tag !== "MemberFound") return
      if (request.beneficiaryFullName !== undefined) expect(request.beneficiaryFullName).toBe(beneficiary.fullName)
      expect(beneficiary.balanceFils + request.amountFils).toBeLessThanOrEqual(2_000_000)
    },
  )

  test.prop([history], { numRuns: 100 })("writes every event so that it reads back equal", (commands) => {
    for (const step of runCommands(aggregate, commands))
      for (const event of eventsOf(step)) {
        const written = JSON.parse(JSON.stringify(aggregate.codec.encode(event)))
        expect(Result.getOrThrow(aggregate.codec.decode(written))).toEqual(event)
      }
  })
})
