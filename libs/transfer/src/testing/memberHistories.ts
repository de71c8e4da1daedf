/**
 * Whole member-account histories (the sandbox's wallet member, credited by
 * wallet transfers) for property tests, decided by the real
 * `MemberAccount.aggregate`: an opening and credits that fill the balance
 * limit exactly or pass it by a fils, with references reused, with and
 * without late retries. The laws they must keep are in `laws.ts`.
 */
import { validHistories, withRetries } from "@mizan/eventsourcing/testing/properties"
import { fils, timestamp } from "@mizan/kernel"
import fc from "fast-check"
import { aggregate } from "../member/aggregate.ts"
import type { Command } from "../member/commands.ts"
import { digestOf } from "./digests.ts"

const openedAt = timestamp(Date.UTC(2026, 2, 1, 9))

/** AED 20,000: the balance limit a wallet transfer's credit states, in fils. */
const balanceMaxFils = 2_000_000

/** Opening member `digestOf(10)` with a balance of nothing, half the limit, or one fils below it. */
export const memberAccountOpening: fc.Arbitrary<Command> = fc.constantFrom(0, 1_000_000, 1_999_999).map((opening) => ({
  _tag: "OpenMemberAccount",
  memberIdDigest: digestOf(10),
  phoneNoDigest: digestOf(11),
  fullName: digestOf(12),
  openingBalanceFils: fils(opening),
  now: openedAt,
}))

/** A credit for wallet transfer T1 to T4: one fils, a quarter of the limit, or anything up to half of it. */
export const memberAccountCredit: fc.Arbitrary<Command> = fc
  .record({
    reference: fc.constantFrom("T1", "T2", "T3", "T4"),
    amount: fc.oneof(fc.constantFrom(1, 500_000), fc.integer({ min: 1, max: 1_000_000 })),
    minutes: fc.nat({ max: 600 }),
  })
  .map(({ reference, amount, minutes }) => ({
    _tag: "CreditMemberAccount",
    reference,
    amountFils: fils(amount),
    balanceMaxFils: fils(balanceMaxFils),
    now: timestamp(openedAt + minutes * 60_000),
  }))

/**
 * Sequences of commands against one member account: mostly opened first,
 * then credits (some before it is open, some reusing a reference with
 * another amount, some passing the limit).
 *
 *   fc.property(memberAccountCommands, (commands) => mySandboxDirectory.run(commands))
 */
export const memberAccountCommands: fc.Arbitrary<ReadonlyArray<Command>> = fc
  .tuple(
    fc.option(memberAccountOpening, { freq: 6, nil: undefined }),
    fc.array(fc.oneof({ weight: 6, arbitrary: memberAccountCredit }, memberAccountOpening), { maxLength: 10 }),
  )
  .map(([opening, rest]) => (opening === undefined ? rest : [opening, ...rest]))

/**
 * Histories of `memberAccountCommands`, decided by the real member account.
 *
 *   fc.property(validMemberAccountHistories, (h) => void memberCreditsAddUp(h.events))
 */
export const validMemberAccountHistories = validHistories(aggregate, memberAccountCommands)

/**
 * `validMemberAccountHistories` with accepted commands sent again later (a
 * credit retried after the wallet transfer's request timed out).
 *
 *   fc.property(memberAccountRetries, (h) => retriesDecideNothing(MemberAccount.aggregate)(h.commands))
 */
export const memberAccountRetries = withRetries(aggregate, memberAccountCommands)
