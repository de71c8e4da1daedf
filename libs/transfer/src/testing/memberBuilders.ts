import { fils, type Timestamp } from "@mizan/kernel"
import type { CreditMemberAccount, OpenMemberAccount } from "../member/commands.ts"
import { digestOf } from "./digests.ts"

/**
 * Opening member `digestOf(10)` (phone `digestOf(11)`, name `digestOf(12)`)
 * with AED 15,000, unless `member` says otherwise.
 */
export const openMemberAccount = (now: Timestamp, member: Partial<OpenMemberAccount> = {}): OpenMemberAccount => ({
  _tag: "OpenMemberAccount",
  memberIdDigest: digestOf(10),
  phoneNoDigest: digestOf(11),
  fullName: digestOf(12),
  openingBalanceFils: fils(1_500_000),
  now,
  ...member,
})

/** A credit of `amountFils` for the transfer `reference`, under the wallet's balance limit of AED 20,000. */
export const creditMemberAccount = (now: Timestamp, reference: string, amountFils: number): CreditMemberAccount => ({
  _tag: "CreditMemberAccount",
  reference,
  amountFils: fils(amountFils),
  balanceMaxFils: fils(2_000_000),
  now,
})
