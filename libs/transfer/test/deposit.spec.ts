import { test } from "@fast-check/vitest"
import { deciderSpec } from "@mizan/eventsourcing/testing"
import { fils } from "@mizan/kernel"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { VamDeposit } from "../src/index.ts"
import { at, runCommands, sha256, withRetries } from "./support.ts"

const { aggregate, invariants } = VamDeposit
const spec = deciderSpec(aggregate)

const received = at("2026-03-01T09:00:00Z")
const cleared = at("2026-03-01T09:30:00Z")

const report = (deposit: Partial<VamDeposit.VamDepositReport> = {}, now = received): VamDeposit.RecordVamDeposit => ({
  _tag: "RecordVamDeposit",
  merchantId: "M1",
  now,
  deposit: {
    orderNo: "V0001",
    transactionTime: received,
    amountFils: fils(250_000),
    status: "PENDING",
    referenceNo: "FT26060XYZ",
    remitterInfo: sha256("OMAR HASSAN"),
    collectIBAN: sha256("AE070331234567890123456"),
    ...deposit,
  },
  notifyUrl: "https://merchant.example/vam",
})

const receivedEvent = (deposit: Partial<VamDeposit.VamDepositReport> = {}) =>
  Result.getOrThrow(aggregate.decide(report(deposit), aggregate.initialState))[0] as VamDeposit.VamDepositReceived

describe("recording a virtual-account deposit", () => {
  it("records a PENDING deposit with the fields of vamDepositOrder, names and IBANs as digests", () =>
    spec
      .given([])
      .when(report())
      .thenEmits([
        {
          _tag: "VamDepositReceived",
          merchantId: "M1",
          orderNo: "V0001",
          transactionTime: received,
          amountFils: fils(250_000),
          status: "PENDING",
          referenceNo: "FT26060XYZ",
          remitterInfo: sha256("OMAR HASSAN"),
          collectIBAN: sha256("AE070331234567890123456"),
          notifyUrl: "https://merchant.example/vam",
          at: received,
        },
      ]))

  it("records a deposit reported final at once", () =>
    spec
      .given([])
      .when(report({ status: "FAILED" }))
      .thenState((state) => expect(state.status).toBe("FAILED")))

  it("settles a PENDING deposit with its final status and time", () =>
    spec
      .given([receivedEvent()])
      .when(report({ status: "SUCCESS", transactionTime: cleared }, cleared))
      .thenEmits([{ _tag: "VamDepositSettled", status: "SUCCESS", transactionTime: cleared, at: cleared }]))

  it("answers the same report again with nothing new", () => {
    spec.given([receivedEvent()]).when(report()).thenNothing()
    spec
      .given([receivedEvent({ status: "SUCCESS" })])
      .when(report({ status: "SUCCESS" }))
      .thenNothing()
  })

  it("ignores a late PENDING report after the final one", () =>
    spec
      .given([receivedEvent({ status: "SUCCESS" })])
      .when(report({ status: "PENDING" }))
      .thenNothing())

  it("keeps a final status: FAILED after SUCCESS answers 62028, SUCCESS after FAILED 62002", () => {
    spec
      .given([receivedEvent({ status: "SUCCESS" })])
      .when(report({ status: "FAILED" }))
      .thenRejects({ code: "ORDER_SUCCESS" })
    spec
      .given([receivedEvent({ status: "FAILED" })])
      .when(report({ status: "SUCCESS" }))
      .thenRejects({ code: "ORDER_FAILURE" })
  })

  it("refuses the same orderNo with other details with 62016", () =>
    spec
      .given([receivedEvent()])
      .when(report({ amountFils: fils(250_001) }))
      .thenRejects({ code: "MERCHANT_ORDER_NO_EXIST" }))

  it.each([
    ["a zero amount", { amountFils: fils(0) }],
    ["a clear remitter name", { remitterInfo: "OMAR HASSAN" }],
    ["a referenceNo above 200 characters", { referenceNo: "r".repeat(201) }],
  ])("refuses %s with 400", (_, deposit) =>
    spec
      .given([])
      .when(report(deposit as Partial<VamDeposit.VamDepositReport>))
      .thenRejects({ code: "INVALID_PARAMETER" }),
  )
})

const reportArbitrary = fc
  .record({
    status: fc.constantFrom<VamDeposit.DepositStatus>("PENDING", "SUCCESS", "FAILED"),
    amount: fc.constantFrom(250_000, 250_000, 1),
    minute: fc.integer({ min: 0, max: 59 }),
  })
  .map(({ status, amount, minute }) =>
    report({
      status,
      amountFils: fils(amount),
      transactionTime: at(`2026-03-01T10:${String(minute).padStart(2, "0")}:00Z`),
    }),
  )
const history = fc
  .array(reportArbitrary, { minLength: 1, maxLength: 8 })
  .chain((reports) =>
    fc
      .array(fc.boolean(), { minLength: reports.length, maxLength: reports.length })
      .map((retried) => withRetries(reports, retried)),
  )

describe("virtual-account deposit properties", () => {
  test.prop([history], { numRuns: 150 })(
    "never leaves a final status, keeps its invariants and decides nothing for a repeat",
    (reports) => {
      for (const step of runCommands(aggregate, reports)) {
        expect(invariants(step.after)).toEqual([])
        if (step.before.status === "SUCCESS" || step.before.status === "FAILED")
          expect(step.after.status).toBe(step.before.status)
        const again = aggregate.decide(step.command, step.after)
        expect(Result.isSuccess(again) ? again.success : []).toEqual([])
      }
    },
  )
})
