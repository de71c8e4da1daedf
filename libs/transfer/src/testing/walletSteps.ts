import { type FeePlan, fils, type Timestamp, timestamp } from "@mizan/kernel"
import fc from "fast-check"
import type { Beneficiary, Command } from "../wallet/commands.ts"
import { digestOf as digest } from "./digests.ts"
import { placeWalletTransfer } from "./walletBuilders.ts"

const memberName = digest(1)

/** Amounts at the AED 10,000 limit and one fils past it, one fils, and anything up to AED 15,000. */
const amount = fc.oneof(fc.constantFrom(1, 1_000_000, 1_000_001, 999_999), fc.integer({ min: 1, max: 1_500_000 }))

/** A beneficiary's balance against the AED 20,000 limit: exactly filled by the amount, one fils over, or any. */
const balanceChoice = fc.oneof(
  fc.constantFrom("fillsExactly" as const, "oneFilsOver" as const),
  fc.integer({ min: 0, max: 2_000_000 }),
)

const feePlans: ReadonlyArray<FeePlan> = [
  { basisPoints: 100, fixedFils: fils(50) },
  // 0.5% of an odd number of fils is a whole fils and a half: rounded up.
  { basisPoints: 50, fixedFils: fils(0) },
  { basisPoints: 0, fixedFils: fils(0) },
  { basisPoints: 10_000, fixedFils: fils(100) },
]

/**
 * Random commands against one wallet transfer (`merchantOrderNo` W-1 of
 * `merchantId`), aimed at the spec's limits: amounts at AED 10,000 and a fils
 * more, balances that the amount fills to exactly AED 20,000 or passes by a
 * fils, a full name that matches or not, no member; then credits and refusals
 * of the credit, and settlements by another merchant.
 */
export const walletCommand = (merchantId: string, from: Timestamp): fc.Arbitrary<Command> => {
  const now = fc.integer({ min: 0, max: 60_000 }).map((ms) => timestamp(from + ms))
  const place = fc
    .record({
      now,
      amount,
      balance: balanceChoice,
      found: fc.integer({ min: 0, max: 5 }).map((n) => n !== 0),
      fullName: fc.constantFrom("none", "matching", "other"),
      feePlan: fc.constantFrom(...feePlans),
      memo: fc.constantFrom("salary", "salary", "salary", " "),
    })
    .map(({ now, amount, balance, found, fullName, feePlan, memo }): Command => {
      const balanceFils =
        balance === "fillsExactly"
          ? Math.max(0, 2_000_000 - amount)
          : balance === "oneFilsOver"
            ? Math.max(0, 2_000_001 - amount)
            : balance
      const beneficiary: Beneficiary = found
        ? { _tag: "MemberFound", fullName: memberName, balanceFils: fils(balanceFils) }
        : { _tag: "MemberNotFound" }
      return placeWalletTransfer({
        merchantId,
        now,
        beneficiaryIdentity: digest(7),
        beneficiary,
        feePlan,
        request: {
          amountFils: fils(amount),
          memo,
          ...(fullName === "none" ? {} : { beneficiaryFullName: fullName === "matching" ? memberName : digest(2) }),
        },
      })
    })
  const settle = fc
    .record({
      now,
      by: fc.oneof({ arbitrary: fc.constant(merchantId), weight: 9 }, fc.constant("OTHER")),
      outcome: fc.constantFrom<Extract<Command, { _tag: "SettleWalletTransfer" }>["outcome"]>(
        { _tag: "Credited" },
        { _tag: "NotCredited", failCode: "BENEFICIARY_BALANCE_LIMIT_EXCEEDED" },
        { _tag: "NotCredited", failCode: "BENEFICIARY_NOT_FOUND" },
      ),
    })
    .map(({ now, by, outcome }): Command => ({ _tag: "SettleWalletTransfer", merchantId: by, now, outcome }))
  return fc.oneof({ arbitrary: place, weight: 2 }, settle)
}
