import type { Fils, Sha256Hex, Timestamp } from "@mizan/kernel"
import { WalletTransfer } from "@mizan/transfer"
import { Context, type Effect, Schema } from "effect"

/** The directory could not answer; nothing was booked, so the request may be retried as it is. */
export class MemberDirectoryUnavailable extends Schema.TaggedError<MemberDirectoryUnavailable>()(
  "MemberDirectoryUnavailable",
  { detail: Schema.String },
) {}

/** The directory refused the credit for good: the transfer fails with this failCode. */
export class MemberCreditRefused extends Schema.TaggedError<MemberCreditRefused>()("MemberCreditRefused", {
  failCode: WalletTransfer.CreditFailCode,
}) {}

export interface MemberCredit {
  readonly identityType: WalletTransfer.BeneficiaryIdentityType
  readonly identity: Sha256Hex
  readonly amount: Fils
  /** The wallet transfer's orderNo: a credit is booked at most once per reference. */
  readonly reference: string
  /** The directory refuses a credit that would take the balance above this, atomically with the booking. */
  readonly balanceMaxFils: Fils
  readonly now: Timestamp
}

/**
 * The member directory port: member records (full-name digest, balance)
 * by beneficiary identity digest, and the credit of a wallet transfer.
 * Deciders never call it: `find`'s answer travels on PlaceWalletTransfer,
 * `credit`'s on SettleWalletTransfer. `credit` must be idempotent by
 * reference and must refuse beyond balanceMaxFils atomically, so that
 * concurrent transfers to one member cannot pass AED 20,000 together.
 */
export class MemberDirectory extends Context.Service<
  MemberDirectory,
  {
    readonly find: (
      identityType: WalletTransfer.BeneficiaryIdentityType,
      identity: Sha256Hex,
    ) => Effect.Effect<WalletTransfer.Beneficiary, MemberDirectoryUnavailable>
    readonly credit: (credit: MemberCredit) => Effect.Effect<void, MemberCreditRefused | MemberDirectoryUnavailable>
  }
>()("@mizan/order-flows/MemberDirectory") {}
