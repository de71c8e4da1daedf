import { deciderSpec } from "@mizan/eventsourcing/testing"
import { fils } from "@mizan/kernel"
import { describe, expect, it } from "vitest"
import { MemberAccount } from "../src/index.ts"
import { creditMemberAccount, openMemberAccount } from "../src/testing/index.ts"
import { at } from "./support.ts"

const { aggregate, invariants } = MemberAccount
const spec = deciderSpec(aggregate)
const now = at("2026-03-01T10:00:00Z")

const open = openMemberAccount(now)
const { _tag, now: _, ...member } = open
const opened: MemberAccount.MemberAccountOpened = { _tag: "MemberAccountOpened", ...member, at: now }
const credit = (reference: string, amount: number) => creditMemberAccount(now, reference, amount)
/** Reference T1 booked: 1 fils on the opening balance. */
const creditedT1: MemberAccount.MemberAccountCredited = {
  _tag: "MemberAccountCredited",
  reference: "T1",
  amountFils: fils(1),
  balanceAfterFils: fils(1_500_001),
  at: now,
}

describe("the sandbox member account", () => {
  it("opens once; opening again with the same member changes nothing", () => {
    spec.given([]).when(open).thenEmits([opened])
    spec.given([opened]).when(open).thenNothing()
  })

  it("refuses to open again with other details", () =>
    spec
      .given([opened])
      .when({ ...open, openingBalanceFils: fils(0) })
      .thenRejects({ reason: "OPENED_DIFFERENTLY" }))

  it("books a credit and keeps the balance as the opening balance plus the credits", () =>
    spec
      .given([opened])
      .when(credit("T1", 500_000))
      .thenState((state) => {
        expect(state).toMatchObject({ balanceFils: 2_000_000 })
        expect(invariants(state)).toEqual([])
      }))

  it("books a reference once", () => spec.given([opened, creditedT1]).when(credit("T1", 1)).thenNothing())

  it("refuses a reference booked with another amount", () =>
    spec.given([opened, creditedT1]).when(credit("T1", 2)).thenRejects({ reason: "REFERENCE_REUSED" }))

  it("refuses a credit beyond the balance limit", () =>
    spec.given([opened]).when(credit("T1", 500_001)).thenRejects({ reason: "BALANCE_LIMIT_EXCEEDED" }))

  it("refuses a credit to an account never opened", () =>
    spec.given([]).when(credit("T1", 1)).thenRejects({ reason: "NOT_OPEN" }))
})
