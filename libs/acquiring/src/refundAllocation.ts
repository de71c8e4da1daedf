/**
 * Which accounts a refund is taken from, exactly in fils. The accounts are
 * the ones a payment was split into (settlement.ts): the payee, each sharing
 * account and the fee account. Every allocation sums to the refund amount,
 * and no account ever gives back more than it received: refunds are taken
 * from what each account has left (received minus refunds pending or
 * succeeded), so partial refunds add up without rounding drift.
 *
 * This is the one implementation: the acquiring order computes the allocation
 * when it reserves a refund, and the refund order records what it is given.
 */
import {
  allocateProportionally,
  type Fils,
  fils,
  formatAed,
  isForgotten,
  type Rejection,
  reject,
  rejectField,
  subtractFils,
  sumFils,
  sumFilsBig,
  zeroFils,
} from "@mizan/kernel"
import { Result } from "effect"
import type { RefundRequest, RefundSharingParam } from "./commands.ts"
import type { RecordedSharingParam, RefundAllocation } from "./events.ts"
import { feeTotalFils } from "./settlement.ts"
import type { Payment, RefundReservation } from "./state.ts"

export type Account =
  | { readonly kind: "payee" }
  | { readonly kind: "sharing"; readonly sharingIdentitySeqId: number }
  | { readonly kind: "fee" }

export interface AccountBalance {
  readonly account: Account
  readonly receivedFils: Fils
  /** Refunds pending or succeeded taken from this account. */
  readonly refundedFils: Fils
  /** What a new refund may still take: received minus refunded (never below zero). */
  readonly leftFils: Fils
}

const payee: Account = { kind: "payee" }
const feeAccount: Account = { kind: "fee" }
const sharingAccount = (sharingIdentitySeqId: number): Account => ({ kind: "sharing", sharingIdentitySeqId })

/** The part of a refund taken from one account. */
export const partOf = (allocation: RefundAllocation, account: Account): Fils => {
  switch (account.kind) {
    case "payee":
      return allocation.payeeFils
    case "fee":
      return allocation.feeFils
    case "sharing":
      return (
        allocation.sharing.find((s) => s.sharingIdentitySeqId === account.sharingIdentitySeqId)?.amountFils ?? zeroFils
      )
  }
}

/** What an allocation's parts add up to, in bigint: a check, which must not throw on a damaged allocation. */
export const allocationTotalFils = (allocation: RefundAllocation): bigint =>
  sumFilsBig([allocation.payeeFils, allocation.feeFils, ...allocation.sharing.map((s) => s.amountFils)])

/** Every account of a paid order, in the order payee, sharing accounts by sequence, fee account. */
export const accountBalances = (
  payment: Payment,
  activeRefunds: ReadonlyArray<RefundReservation>,
): ReadonlyArray<AccountBalance> => {
  const received: ReadonlyArray<readonly [Account, Fils]> = [
    [payee, payment.settlement.settlementAmountFils],
    ...payment.settlement.sharing.map(
      (s) => [sharingAccount(s.sharingIdentitySeqId), s.sharingSettledAmountFils] as const,
    ),
    [feeAccount, feeTotalFils(payment.settlement)],
  ]
  return received.map(([account, receivedFils]) => {
    const refundedFils = sumFils(activeRefunds.map((r) => partOf(r.allocation, account)))
    const leftFils = refundedFils < receivedFils ? subtractFils(receivedFils, refundedFils) : zeroFils
    return { account, receivedFils, refundedFils, leftFils }
  })
}

/** An account as a refusal and a broken rule name it: "the payee account", "sharing account 2", "the fee account". */
export const describeAccount = (account: Account): string =>
  account.kind === "sharing" ? `sharing account ${account.sharingIdentitySeqId}` : `the ${account.kind} account`

/** "a", "a and b", "a, b and c". */
const sentence = (parts: ReadonlyArray<string>): string =>
  parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`

/** Splits `amountFils` over `balances` in proportion to what each has left (largest remainder). */
const proportionally = (
  amountFils: Fils,
  balances: ReadonlyArray<AccountBalance>,
): Result.Result<ReadonlyArray<readonly [Account, Fils]>, Rejection> => {
  const leftFils = sumFils(balances.map((b) => b.leftFils))
  if (amountFils > leftFils)
    return Result.fail(
      reject(
        "REFUND_AMOUNT_EXCEEDED",
        `the refund of ${formatAed(amountFils)} is more than the ${formatAed(leftFils)} left in ${sentence(balances.map((b) => describeAccount(b.account)))}`,
      ),
    )
  const parts = allocateProportionally(
    amountFils,
    balances.map((b) => b.leftFils),
  )
  return Result.succeed(balances.map((b, i) => [b.account, parts[i] ?? zeroFils] as const))
}

const toAllocation = (parts: ReadonlyArray<readonly [Account, Fils]>): RefundAllocation => ({
  payeeFils: parts.find(([a]) => a.kind === "payee")?.[1] ?? zeroFils,
  feeFils: parts.find(([a]) => a.kind === "fee")?.[1] ?? zeroFils,
  sharing: parts.flatMap(([account, amountFils]) =>
    account.kind === "sharing" ? [{ sharingIdentitySeqId: account.sharingIdentitySeqId, amountFils }] : [],
  ),
})

const memberRule = (
  member: RefundSharingParam,
  index: number,
  sharingParamList: ReadonlyArray<RecordedSharingParam>,
  balances: ReadonlyArray<AccountBalance>,
): Rejection | undefined => {
  const field = `sharingParamList[${index}]`
  const original = sharingParamList.find((s) => s.sharingIdentitySeqId === member.sharingIdentitySeqId)
  if (original === undefined)
    return rejectField(
      "SHARING_MEMBER_NOT_EXIST",
      `${field}.sharingIdentitySeqId`,
      `${member.sharingIdentitySeqId} is not a sharing member of the order`,
    )
  // A forgotten member's identity cannot be compared with anything: only a proportional refund still reaches it.
  if (isForgotten(original.sharingIdentity))
    return rejectField(
      "REFUND_SHARING_MEMBER_MISMATCH",
      field,
      `names sharing member ${member.sharingIdentitySeqId} of the order, whose identity is forgotten: refund it in proportion (refundSharingAmount true without sharingParamList)`,
    )
  if (
    original.sharingIdentityType !== member.sharingIdentityType ||
    original.sharingIdentity !== member.sharingIdentity
  )
    return rejectField(
      "REFUND_SHARING_MEMBER_MISMATCH",
      field,
      `does not name the identity of sharing member ${member.sharingIdentitySeqId} of the order`,
    )
  const balance = balances.find(
    (b) => b.account.kind === "sharing" && b.account.sharingIdentitySeqId === member.sharingIdentitySeqId,
  )
  const leftFils = balance?.leftFils ?? zeroFils
  if (member.sharingAmountFils > leftFils)
    return rejectField(
      "REFUND_AMOUNT_EXCEEDED",
      `${field}.sharingAmountFils`,
      `${formatAed(member.sharingAmountFils)} is more than sharing member ${member.sharingIdentitySeqId} has left (${formatAed(leftFils)})`,
    )
  return undefined
}

/**
 * Explicit per-member amounts: each listed member gives back its amount, and
 * the rest of the refund comes from the payee and the fee account in
 * proportion to what they have left. Unlisted members give back nothing.
 */
const byMemberList = (
  request: RefundRequest,
  members: ReadonlyArray<RefundSharingParam>,
  sharingParamList: ReadonlyArray<RecordedSharingParam>,
  balances: ReadonlyArray<AccountBalance>,
): Result.Result<RefundAllocation, Rejection> => {
  // Create order: "When used, later refunds can only be proportional and per-account refund amounts cannot be specified."
  if (sharingParamList.some((s) => s.withholdAndRemitFee === true))
    return Result.fail(
      reject(
        "REFUND_REJECTED",
        "the order withheld its fee from a sharing account (withholdAndRemitFee), so only a proportional refund is allowed: leave out sharingParamList",
        "sharingParamList",
      ),
    )
  const seqIds = members.map((m) => m.sharingIdentitySeqId)
  const repeated = seqIds.find((id, i) => seqIds.indexOf(id) !== i)
  if (repeated !== undefined)
    return Result.fail(
      rejectField("INVALID_PARAMETER", "sharingParamList", `names sharing member ${repeated} more than once`),
    )
  for (const [index, member] of members.entries()) {
    const broken = memberRule(member, index, sharingParamList, balances)
    if (broken !== undefined) return Result.fail(broken)
  }
  const listedFils = sumFilsBig(members.map((m) => m.sharingAmountFils))
  if (listedFils > BigInt(request.amountFils))
    return Result.fail(
      rejectField(
        "INVALID_PARAMETER",
        "sharingParamList",
        `sharingAmountFils values sum to ${formatAed(listedFils)}, more than amountFils (${formatAed(request.amountFils)})`,
      ),
    )
  const rest = proportionally(
    fils(request.amountFils - Number(listedFils)),
    balances.filter((b) => b.account.kind !== "sharing"),
  )
  return Result.map(rest, (parts) => ({
    ...toAllocation(parts),
    sharing: [...members]
      .sort((a, b) => a.sharingIdentitySeqId - b.sharingIdentitySeqId)
      .map((m) => ({ sharingIdentitySeqId: m.sharingIdentitySeqId, amountFils: m.sharingAmountFils })),
  }))
}

/**
 * The allocation of a refund request over a paid order's accounts (refund
 * order, "refundSharingAmount"):
 * - false (the default): from the payee and the fee account, in proportion;
 *   the sharing accounts keep what they received;
 * - true without a list: from the payee, every sharing account and the fee
 *   account, in proportion;
 * - true with a list: explicit per-member amounts (see `byMemberList`).
 */
export const allocateRefund = (
  request: RefundRequest,
  sharingParamList: ReadonlyArray<RecordedSharingParam>,
  balances: ReadonlyArray<AccountBalance>,
): Result.Result<RefundAllocation, Rejection> => {
  if (request.refundSharingAmount !== true)
    return Result.map(
      proportionally(
        request.amountFils,
        balances.filter((b) => b.account.kind !== "sharing"),
      ),
      toAllocation,
    )
  if (request.sharingParamList === undefined)
    return Result.map(proportionally(request.amountFils, balances), toAllocation)
  return byMemberList(request, request.sharingParamList, sharingParamList, balances)
}

/** The whole of what every account has left: what a revoke refunds. */
export const allocateEverything = (balances: ReadonlyArray<AccountBalance>): RefundAllocation =>
  toAllocation(balances.map((b) => [b.account, b.leftFils] as const))

export const leftTotalFils = (balances: ReadonlyArray<AccountBalance>): Fils => sumFils(balances.map((b) => b.leftFils))
