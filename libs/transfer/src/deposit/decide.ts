import { checkRequest, type Rejection, reject, sameRequest, withoutUndefined } from "@mizan/kernel"
import { Result } from "effect"
import { type Command, VamDepositReport } from "./commands.ts"
import type { Event } from "./events.ts"
import { isFinal, type State } from "./state.ts"

type Decision = Result.Result<ReadonlyArray<Event>, Rejection>

/** What identifies a deposit beyond its orderNo: all it reports except its status and time, which move. */
const { status: _status, transactionTime: _time, ...depositIdentity } = VamDepositReport.fields

/**
 * Idempotent by orderNo. A new deposit is recorded as reported (PENDING, or
 * directly final). A PENDING deposit moves to its final status once; the
 * same report again, or a late PENDING after the final one, changes
 * nothing. A different final status after a final one is refused (62028
 * after SUCCESS, 62002 after FAILED), and so is the same orderNo with other
 * details (62016).
 */
export const decide = (command: Command, state: State): Decision => {
  const { deposit, now } = command
  if (state.status === "ABSENT") {
    const invalid = checkRequest(VamDepositReport, deposit)
    if (invalid !== undefined) return Result.fail(invalid)
    const { notifyUrl } = command
    return Result.succeed([
      {
        _tag: "VamDepositReceived",
        merchantId: command.merchantId,
        ...deposit,
        ...withoutUndefined({ notifyUrl }),
        at: now,
      },
    ])
  }
  if (state.merchantId !== command.merchantId || !sameRequest(depositIdentity, deposit, state))
    return Result.fail(
      reject("MERCHANT_ORDER_NO_EXIST", `deposit ${deposit.orderNo} was reported before with other details`),
    )
  if (deposit.status === state.status || deposit.status === "PENDING") return Result.succeed([])
  if (isFinal(state.status))
    return Result.fail(
      state.status === "SUCCESS"
        ? reject("ORDER_SUCCESS", `deposit ${deposit.orderNo} has already succeeded`)
        : reject("ORDER_FAILURE", `deposit ${deposit.orderNo} has already failed`),
    )
  return Result.succeed([
    { _tag: "VamDepositSettled", status: deposit.status, transactionTime: deposit.transactionTime, at: now },
  ])
}
