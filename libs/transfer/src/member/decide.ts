import { fils } from "@mizan/kernel"
import { Equal, Result } from "effect"
import type { Command, CreditMemberAccount, OpenMemberAccount } from "./commands.ts"
import type { Event } from "./events.ts"
import { MemberAccountRefusal } from "./refusal.ts"
import type { State } from "./state.ts"

type Decision = Result.Result<ReadonlyArray<Event>, MemberAccountRefusal>

export const decide = (command: Command, state: State): Decision => {
  switch (command._tag) {
    case "OpenMemberAccount":
      return open(command, state)
    case "CreditMemberAccount":
      return credit(command, state)
  }
}

const open = ({ _tag, now, ...member }: OpenMemberAccount, state: State): Decision => {
  if (state.status === "ABSENT") return Result.succeed([{ _tag: "MemberAccountOpened", ...member, at: now }])
  const { memberIdDigest, phoneNoDigest, fullName, openingBalanceFils } = state
  return Equal.equals(member, { memberIdDigest, phoneNoDigest, fullName, openingBalanceFils })
    ? Result.succeed([])
    : Result.fail(new MemberAccountRefusal({ reason: "OPENED_DIFFERENTLY", detail: "the account is open already" }))
}

/** Booked once per reference, and never beyond the balance limit the wallet transfer states. */
const credit = ({ reference, amount, balanceMaxFils, now }: CreditMemberAccount, state: State): Decision => {
  if (state.status === "ABSENT")
    return Result.fail(new MemberAccountRefusal({ reason: "NOT_OPEN", detail: "no such member account" }))
  const booked = state.credits.get(reference)
  if (booked !== undefined)
    return booked === amount
      ? Result.succeed([])
      : Result.fail(
          new MemberAccountRefusal({ reason: "REFERENCE_REUSED", detail: `${reference} was credited another amount` }),
        )
  const balanceAfter = state.balanceFils + amount
  if (balanceAfter > balanceMaxFils)
    return Result.fail(
      new MemberAccountRefusal({ reason: "BALANCE_LIMIT_EXCEEDED", detail: "the balance would pass its limit" }),
    )
  return Result.succeed([
    { _tag: "MemberAccountCredited", reference, amount, balanceAfterFils: fils(balanceAfter), at: now },
  ])
}
