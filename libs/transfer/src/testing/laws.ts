/**
 * The laws of the wallet transfer, the bank transfer and the member account
 * as reusable properties over a stream's events (from the histories here,
 * or read back from your store after your code ran): each throws
 * `LawBroken` naming the rule and the step.
 */
import {
  type History,
  LawBroken,
  type LifecycleLaw,
  lifecycleHolds,
  rulesHoldThroughout,
  type StreamLaw,
} from "@mizan/eventsourcing/testing/properties"
import { Result } from "effect"
import * as BankTransfer from "../bank/index.ts"
import * as VamDeposit from "../deposit/index.ts"
import * as MemberAccount from "../member/index.ts"
import * as WalletTransfer from "../wallet/index.ts"

/** What every law throws, and the law over retries, from `@mizan/eventsourcing/testing`. */
/** Reads one of your streams back from the store, decoded, to hold a law to: `readEvents(WalletTransfer, merchantId, merchantOrderNo)`. */
export { LawBroken, readEvents, retriesDecideNothing } from "@mizan/eventsourcing/testing/properties"

/** AED 10,000 and AED 20,000 (spec: Limits), in fils, written here apart from the decider's constants. */
const transferLimitFils = 1_000_000
const beneficiaryBalanceLimitFils = 2_000_000

/** Placed, then credited or failed; SUCCESS and FAILURE are final. Read from the events alone. */
type TransferStatus = "ABSENT" | "CREATED" | "SUCCESS" | "FAILURE"
const transferLifecycle: Readonly<Record<TransferStatus, ReadonlyArray<TransferStatus>>> = {
  ABSENT: ["CREATED"],
  CREATED: ["SUCCESS", "FAILURE"],
  SUCCESS: [],
  FAILURE: [],
}
/** The status each event leaves a transfer in: a record over every tag, so a new event must be given one. */
const statusAfter: Readonly<Record<WalletTransfer.Event["_tag"] | BankTransfer.Event["_tag"], TransferStatus>> = {
  WalletTransferPlaced: "CREATED",
  WalletTransferSucceeded: "SUCCESS",
  WalletTransferFailed: "FAILURE",
  BankTransferPlaced: "CREATED",
  BankTransferSucceeded: "SUCCESS",
  BankTransferFailed: "FAILURE",
}
const statusOfTransferEvent = (tag: WalletTransfer.Event["_tag"] | BankTransfer.Event["_tag"]): TransferStatus =>
  statusAfter[tag]

/**
 * Every rule of the wallet transfer's `invariants` holds after every event.
 *
 *   fc.property(validWalletHistories, (h) => void walletRulesHold(h.events))
 */
export const walletRulesHold: StreamLaw<WalletTransfer.Event, WalletTransfer.State> = rulesHoldThroughout(
  WalletTransfer.aggregate,
  WalletTransfer.invariants,
  "the wallet transfer's rules hold",
)

/**
 * A wallet transfer that has not failed carries at most AED 10,000 and
 * takes its beneficiary, found in the directory, to at most AED 20,000,
 * after every event. The limits are written here as numbers.
 *
 *   walletLimitsHold(eventsOfMyWalletTransferStream)
 */
export const walletLimitsHold: StreamLaw<WalletTransfer.Event, WalletTransfer.State> = rulesHoldThroughout(
  WalletTransfer.aggregate,
  (state: WalletTransfer.State) => {
    if (state.status === "ABSENT" || state.status === "FAILURE") return []
    const broken: Array<{ rule: string; detail: string }> = []
    if (state.amountFils > transferLimitFils)
      broken.push({
        rule: "a transfer that did not fail carries at most AED 10,000",
        detail: `${state.amountFils} fils`,
      })
    const balance = state.beneficiaryBalanceFils
    if (balance === undefined || balance + state.amountFils > beneficiaryBalanceLimitFils)
      broken.push({
        rule: "a transfer that did not fail takes a found beneficiary to at most AED 20,000",
        detail: balance === undefined ? "no member was found" : `${balance} + ${state.amountFils} fils`,
      })
    return broken
  },
  "the wallet limits hold",
)

/**
 * The wallet transfer's events follow its lifecycle: placed, then credited
 * or failed, and nothing after SUCCESS or FAILURE.
 *
 *   walletLifecycleHolds(eventsOfMyWalletTransferStream)
 */
export const walletLifecycleHolds: LifecycleLaw<WalletTransfer.Event, TransferStatus> = lifecycleHolds(
  "ABSENT",
  (event) => statusOfTransferEvent(event._tag),
  transferLifecycle,
  "the wallet transfer's lifecycle holds",
)

/**
 * Every rule of the bank transfer's `invariants` holds after every event:
 * the payout agrees with its rate, its rounding rule and its fee plan.
 *
 *   fc.property(validBankTransferHistories, (h) => void bankTransferRulesHold(h.events))
 */
export const bankTransferRulesHold: StreamLaw<BankTransfer.Event, BankTransfer.State> = rulesHoldThroughout(
  BankTransfer.aggregate,
  BankTransfer.invariants,
  "the bank transfer's rules hold",
)

/**
 * The bank transfer's events follow its lifecycle: placed, then the bank's
 * one outcome, and nothing after it.
 *
 *   bankTransferLifecycleHolds(eventsOfMyBankTransferStream)
 */
export const bankTransferLifecycleHolds: LifecycleLaw<BankTransfer.Event, TransferStatus> = lifecycleHolds(
  "ABSENT",
  (event) => statusOfTransferEvent(event._tag),
  transferLifecycle,
  "the bank transfer's lifecycle holds",
)

/**
 * Every rule of the member account's `invariants` holds after every event.
 *
 *   fc.property(validMemberAccountHistories, (h) => void memberAccountRulesHold(h.events))
 */
export const memberAccountRulesHold: StreamLaw<MemberAccount.Event, MemberAccount.State> = rulesHoldThroughout(
  MemberAccount.aggregate,
  MemberAccount.invariants,
  "the member account's rules hold",
)

interface Ledger {
  readonly balance: number | undefined
  readonly references: ReadonlySet<string>
  readonly broken: { readonly rule: string; readonly detail: string } | undefined
}

/** The member account as its events alone say it: the balance each credit reports must be the sum so far. */
const ledger = {
  initialState: { balance: undefined, references: new Set<string>(), broken: undefined } as Ledger,
  evolve: (state: Ledger, event: MemberAccount.Event): Ledger => {
    if (event._tag === "MemberAccountOpened")
      return state.balance === undefined
        ? { ...state, balance: event.openingBalanceFils }
        : { ...state, broken: { rule: "an account is opened once", detail: "opened again" } }
    const expected = (state.balance ?? 0) + event.amountFils
    if (state.balance === undefined)
      return { ...state, broken: { rule: "an account is opened before it is credited", detail: event.reference } }
    if (state.references.has(event.reference))
      return { ...state, broken: { rule: "a reference is credited once", detail: event.reference } }
    return {
      balance: event.balanceAfterFils,
      references: new Set([...state.references, event.reference]),
      broken:
        event.balanceAfterFils === expected
          ? undefined
          : {
              rule: "the balance after a credit is the balance before plus the credit",
              detail: `${event.balanceAfterFils} != ${expected}`,
            },
    }
  },
}

/**
 * The member account's events add up on their own: opened once, then each
 * reference credited once, the balance each credit reports being the one
 * before plus its amount.
 *
 *   memberCreditsAddUp(eventsOfMyMemberAccountStream)
 */
export const memberCreditsAddUp = (events: Iterable<MemberAccount.Event>): void =>
  void rulesHoldThroughout(
    ledger,
    (state) => (state.broken === undefined ? [] : [state.broken]),
    "the member account's credits add up",
  )(events)

/**
 * No credit the account took leaves its balance above the limit the credit
 * stated (the wallet transfer's AED 20,000). A law over a history's steps,
 * since the limit travels on the command.
 *
 *   fc.property(validMemberAccountHistories, memberCreditsWithinLimit)
 */
export const memberCreditsWithinLimit = (
  history: Pick<
    History<MemberAccount.Command, MemberAccount.Event, MemberAccount.State, MemberAccount.MemberAccountRefusal>,
    "steps"
  >,
): void =>
  history.steps.forEach(({ command, decided, after }, i) => {
    if (command._tag !== "CreditMemberAccount" || Result.isFailure(decided) || after.status !== "OPEN") return
    if (after.balanceFils > command.balanceMaxFils)
      throw new LawBroken({
        law: "credits stay within the balance limit",
        rule: "no credit takes the balance above the limit it states",
        step: i + 1,
        what: command._tag,
        detail: `${after.balanceFils} > ${command.balanceMaxFils}`,
      })
  })

/**
 * Every rule of the deposit's `invariants` holds after every append.
 *
 *   fc.property(validVamDepositHistories, (h) => void vamDepositRulesHold(h.appends))
 */
export const vamDepositRulesHold: StreamLaw<VamDeposit.Event, VamDeposit.State> = rulesHoldThroughout(
  VamDeposit.aggregate,
  VamDeposit.invariants,
  "the deposit's rules hold",
)

type DepositStatus = "ABSENT" | VamDeposit.DepositStatus

/**
 * The deposit's events follow its lifecycle, read from the events alone:
 * received PENDING or final at once, a PENDING one settles once to SUCCESS
 * or FAILED, and nothing follows a final status.
 *
 *   vamDepositLifecycleHolds(eventsOfMyDepositStream)
 */
export const vamDepositLifecycleHolds: LifecycleLaw<VamDeposit.Event, DepositStatus> = lifecycleHolds(
  "ABSENT",
  (event) => event.status,
  { ABSENT: ["PENDING", "SUCCESS", "FAILED"], PENDING: ["SUCCESS", "FAILED"], SUCCESS: [], FAILED: [] },
  "the deposit's lifecycle holds",
)
