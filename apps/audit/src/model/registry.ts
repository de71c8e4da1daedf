/**
 * The aggregates the audit knows: how to recognise a stream's aggregate by
 * its id, and for each aggregate its codec and `evolve` (the domain's own,
 * so a replay folds exactly as the service did), its `invariants`, a status
 * to count streams by, and the money figures its state adds to the totals.
 * Adding an aggregate to the audit is one entry in `registry`.
 */

import { AcquiringOrder, feeTotalFils } from "@mizan/acquiring"
import { BankCardTransfer } from "@mizan/card-transfer"
import {
  type Aggregate,
  type EventCodec,
  evolveForgottenSubject,
  forgottenSubjectCodec,
  forgottenSubjectInitialState,
  forgottenSubjectInvariants,
  forgottenSubjectStreamPrefix,
} from "@mizan/eventsourcing"
import type { BrokenRule } from "@mizan/kernel"
import { withoutUndefined } from "@mizan/kernel"
import { Notification } from "@mizan/notification"
import { RefundOrder } from "@mizan/refund"
import { testClock, testClockInvariants, testClockStreamPrefix } from "@mizan/test-clock"
import { BankTransfer, MemberAccount, VamDeposit, WalletTransfer } from "@mizan/transfer"
import { type AuditFold, type MoneyFigures, slimmed } from "./auditFold.ts"
import { compactAcquiringFold } from "./compactAcquiring.ts"
import { orderIndex, orderIndexInvariants, orderIndexStreamPrefix } from "./orderIndex.ts"

export type { BrokenRule }

/**
 * The kinds the audit's code names beyond their registry entries: the rules
 * that span streams ask of an order-number index and a refund order, and
 * read an acquiring order (crossStream.ts).
 */
export const acquiringKind = "acquiring"
export const refundKind = "refund"
export const orderIndexKind = "orderIndex"

/** What the audit needs of one aggregate. `Event` and `State` are erased in the registry (see `audited`). */
export interface AuditedAggregate<Event = unknown, State = unknown> {
  /** The aggregate's name in reports. */
  readonly kind: string
  /** Whether a stream is one of this aggregate's, by its id. */
  readonly owns: (streamId: string) => boolean
  readonly codec: EventCodec<Event>
  readonly initialState: State
  readonly evolve: (state: State, event: Event) => State
  readonly invariants: (state: State) => ReadonlyArray<BrokenRule>
  /** What streams are counted by. */
  readonly status: (state: State) => string
  /** What the state adds to the money totals (none by default). */
  readonly money: (state: State) => MoneyFigures
  /** Whether a state is final, no event legal after it (auditFold.ts, `ended`); undefined: never. */
  readonly ended?: ((state: State) => boolean) | undefined
  /**
   * The compact fold a reporting replay uses (auditFold.ts); without one, it
   * folds the domain's states.
   */
  readonly compact?: AuditFold<Event, unknown>
}

/** The domain's own fold of an aggregate, as the replay runs a fold. */
export const domainFold = <Event, State>(aggregate: AuditedAggregate<Event, State>): AuditFold<Event, State> => ({
  initial: () => aggregate.initialState,
  evolve: aggregate.evolve,
  invariants: aggregate.invariants,
  status: aggregate.status,
  money: aggregate.money,
  ended: aggregate.ended,
})

interface AuditedSpec<Event, State, Compact> {
  readonly kind: string
  readonly owns: (streamId: string) => boolean
  readonly aggregate: Pick<Aggregate<never, Event, State, unknown>, "codec" | "initialState" | "evolve">
  /** The domain's invariants: the broken rules, `{ rule, detail }`. */
  readonly invariants: (state: State) => ReadonlyArray<BrokenRule>
  readonly status: (state: State) => string
  readonly money?: (state: State) => MoneyFigures
  /**
   * Whether a state is final: a status from which the decider records no
   * event (check the aggregate's decide and evolve; a wrong answer costs
   * memory or time, never a finding: replay.ts, retirement).
   */
  readonly ended?: (state: State) => boolean
  /** The compact fold, made from the domain's (auditFold.ts); none when the domain's states are small already. */
  readonly compact?: (domain: AuditFold<Event, State>) => AuditFold<Event, Compact>
}

/** The money of an aggregate that moves none: one object for every state, not a new one per stream counted. */
const none: MoneyFigures = Object.freeze({})
const noMoney = (): MoneyFigures => none

/** What a state that keeps every rule answers: one shared list, not a new one per append. */
const noneBroken: ReadonlyArray<BrokenRule> = Object.freeze([])

/**
 * One registry entry. The replay only ever hands an entry's `evolve` the
 * states it made and the events its own codec decoded, so erasing the types
 * here is safe.
 */
const audited = <Event, State, Compact = State>(spec: AuditedSpec<Event, State, Compact>): AuditedAggregate => {
  const entry: AuditedAggregate<Event, State> = {
    kind: spec.kind,
    owns: spec.owns,
    codec: spec.aggregate.codec,
    initialState: spec.aggregate.initialState,
    evolve: spec.aggregate.evolve,
    invariants: (state) => {
      const broken = spec.invariants(state)
      return broken.length === 0 ? noneBroken : broken
    },
    status: spec.status,
    money: spec.money ?? noMoney,
    ...withoutUndefined({ ended: spec.ended }),
  }
  const compact = spec.compact?.(domainFold(entry)) as AuditFold<Event, unknown> | undefined
  return (compact === undefined ? entry : { ...entry, compact }) as unknown as AuditedAggregate
}

const prefixed =
  (prefix: string) =>
  (streamId: string): boolean =>
    streamId.startsWith(prefix)

/** A transfer order's contribution: a succeeded payout moves its amount out, and its fee was earned. */
const payoutMoney = (state: {
  readonly status: string
  readonly amountFils?: number
  readonly payerFeeFils?: number
}): MoneyFigures =>
  state.status === "SUCCESS" ? { paidOut: state.amountFils ?? 0, fees: state.payerFeeFils ?? 0 } : {}

/** A wallet or bank transfer's outcome is final (the decider refuses another). */
const transferEnded = (state: { readonly status: string }): boolean =>
  state.status === "SUCCESS" || state.status === "FAILURE"

/** The aggregates the audit knows, in the order reports list them. */
export const registry: ReadonlyArray<AuditedAggregate> = [
  audited({
    kind: acquiringKind,
    owns: prefixed("acquiring-"),
    aggregate: AcquiringOrder.aggregate,
    invariants: AcquiringOrder.invariants,
    status: (state) => (AcquiringOrder.isOrder(state) && state.revoked ? `${state.status} (revoked)` : state.status),
    // paid: what payers paid (revoked orders included: their refund shows under refunded);
    // settled: the paid amount of orders settled to the merchant; fees: the whole fee of each split.
    money: (state) => {
      if (!AcquiringOrder.isOrder(state)) return {}
      const payment = AcquiringOrder.paymentOf(state)
      if (payment === undefined) return {}
      return {
        paid: payment.paidAmountFils,
        refunded: state.refundedFils,
        settled: state.status === "SETTLED" ? payment.paidAmountFils : 0,
        fees: feeTotalFils(payment.settlement),
      }
    },
    // A failed order takes no refund, nor a settled and revoked one; a refund still pending may yet end.
    ended: (state) =>
      AcquiringOrder.isOrder(state) &&
      (state.status === "FAILURE" || (state.status === "SETTLED" && state.revoked)) &&
      !state.refunds.some((refund) => refund.status === "PENDING"),
    compact: compactAcquiringFold,
  }),
  // Refunded money is counted once, on the acquiring order that guards the refundable balance.
  audited({
    kind: refundKind,
    owns: prefixed("refund-"),
    aggregate: RefundOrder.aggregate,
    invariants: RefundOrder.invariants,
    status: (state) => state.status,
    ended: (state) => state.status === "SUCCESS" || state.status === "FAILURE",
  }),
  audited({
    kind: "walletTransfer",
    owns: prefixed("walletTransfer/"),
    aggregate: WalletTransfer.aggregate,
    invariants: WalletTransfer.invariants,
    status: (state) => state.status,
    money: payoutMoney,
    ended: transferEnded,
    compact: (domain) =>
      slimmed(domain, ["status", "amountFils", "payerFeeFils", "failCode", "failDes", "beneficiaryBalanceFils"]),
  }),
  audited({
    kind: "bankTransfer",
    owns: prefixed("bankTransfer/"),
    aggregate: BankTransfer.aggregate,
    invariants: BankTransfer.invariants,
    status: (state) => state.status,
    money: payoutMoney,
    ended: transferEnded,
    compact: (domain) =>
      slimmed(domain, [
        "status",
        "amountFils",
        "fundoutAmount",
        "fundoutCurrencyCode",
        "payerFeeFils",
        "rate",
        "feePlan",
        // The arrival rule compares the expected arrival with the placement.
        "expectedArrivalTime",
        "createdTime",
      ]),
  }),
  audited({
    kind: "bankCardTransfer",
    owns: prefixed("bankCardTransfer/"),
    aggregate: BankCardTransfer.aggregate,
    invariants: BankCardTransfer.invariants,
    status: (state) => state.status,
    money: payoutMoney,
    // A failed payout to a card is refunded to the payer once, later.
    ended: (state) =>
      state.status === "SUCCESS" ||
      ((state.status === "FAILURE" || state.status === "BANK_FAIL") && state.refundedTime !== undefined),
    compact: (domain) =>
      slimmed(domain, [
        "status",
        "amountFils",
        "accountHolderType",
        "firstName",
        "lastName",
        "companyName",
        "cardLast4",
        "payerFeeFils",
        "feePlan",
        "expiryYear",
        "expiryMonth",
        "createdTime",
        "paidTime",
        "refundedTime",
      ]),
  }),
  audited({
    kind: "vamDeposit",
    owns: prefixed("vamDeposit/"),
    aggregate: VamDeposit.aggregate,
    invariants: VamDeposit.invariants,
    status: (state) => state.status,
    money: (state) => (state.status === "SUCCESS" ? { deposited: state.amountFils } : {}),
    ended: (state) => state.status === "SUCCESS" || state.status === "FAILED",
    compact: (domain) => slimmed(domain, ["status", "amountFils"]),
  }),
  audited({
    kind: "memberAccount",
    owns: prefixed("memberAccount/"),
    aggregate: MemberAccount.aggregate,
    invariants: MemberAccount.invariants,
    status: (state) => state.status,
  }),
  audited({
    kind: "sandboxMemberDirectory",
    owns: prefixed(MemberAccount.directoryOutageStreamPrefix),
    aggregate: MemberAccount.directoryOutage,
    invariants: MemberAccount.directoryOutageInvariants,
    status: (state) => (state.available ? "AVAILABLE" : "OUTAGE"),
  }),
  audited({
    kind: "sandboxClock",
    owns: prefixed(testClockStreamPrefix),
    aggregate: testClock,
    invariants: testClockInvariants,
    status: (state) => (state.offsetMs > 0 ? "ADVANCED" : "REAL_TIME"),
  }),
  audited({
    kind: "notification",
    owns: Notification.isStream,
    aggregate: Notification.aggregate,
    invariants: Notification.invariants,
    status: (state) => state.status,
  }),
  audited({
    kind: orderIndexKind,
    owns: prefixed(orderIndexStreamPrefix),
    aggregate: orderIndex,
    invariants: orderIndexInvariants,
    status: (state) => state.status,
    // Written once: a second OrderNumberIssued is a reissue, which only a damaged log holds.
    ended: (state) => state.status === "ISSUED",
  }),
  audited({
    // Who forgot which (keyed) data subject, and when: docs/architecture.md#sealed-personal-data.
    kind: "forgottenSubject",
    owns: prefixed(forgottenSubjectStreamPrefix),
    aggregate: {
      codec: forgottenSubjectCodec,
      initialState: forgottenSubjectInitialState,
      evolve: evolveForgottenSubject,
    },
    invariants: forgottenSubjectInvariants,
    status: (state) => state.status,
  }),
]

/** The aggregate a stream belongs to, or undefined for a stream no entry owns. */
export const aggregateOf = (
  streamId: string,
  entries: ReadonlyArray<AuditedAggregate> = registry,
): AuditedAggregate | undefined => {
  // A loop, not `find`: the replay asks once per stream, half a million times on a million events.
  for (const entry of entries) if (entry.owns(streamId)) return entry
  return undefined
}
