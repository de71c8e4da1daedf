import { Fils, PositiveFils, Sha256Hex, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { OrderNo } from "../common/fields.ts"

/** A member as the sandbox's configuration seeds it: digests only, and an opening balance. */
export const OpenMemberAccount = Schema.TaggedStruct("OpenMemberAccount", {
  memberIdDigest: Sha256Hex,
  phoneNoDigest: Sha256Hex,
  fullName: Sha256Hex,
  openingBalanceFils: Fils,
  now: Timestamp,
})
export type OpenMemberAccount = typeof OpenMemberAccount.Type

export const CreditMemberAccount = Schema.TaggedStruct("CreditMemberAccount", {
  /** The wallet transfer's orderNo. */
  reference: OrderNo,
  amountFils: PositiveFils,
  balanceMaxFils: Fils,
  now: Timestamp,
})
export type CreditMemberAccount = typeof CreditMemberAccount.Type

export const Command = Schema.Union([OpenMemberAccount, CreditMemberAccount])
export type Command = typeof Command.Type
