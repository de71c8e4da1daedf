import { Fils, Personal, PositiveFils, Sha256Hex, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { OrderNo } from "../common/fields.ts"

export const MemberAccountOpened = Schema.TaggedStruct("MemberAccountOpened", {
  // Personal (sealingPlan.ts): `[forgotten]` once the member is forgotten.
  memberIdDigest: Personal(Sha256Hex),
  phoneNoDigest: Personal(Sha256Hex),
  fullName: Personal(Sha256Hex),
  openingBalanceFils: Fils,
  at: Timestamp,
})
export type MemberAccountOpened = typeof MemberAccountOpened.Type

/**
 * Stored under `amount`, as every event so far was written; the domain reads fils.
 */
export const MemberAccountCredited = Schema.TaggedStruct("MemberAccountCredited", {
  reference: OrderNo,
  amountFils: PositiveFils,
  balanceAfterFils: Fils,
  at: Timestamp,
}).pipe(Schema.encodeKeys({ amountFils: "amount" }))
export type MemberAccountCredited = typeof MemberAccountCredited.Type

export const Event = Schema.Union([MemberAccountOpened, MemberAccountCredited])
export type Event = typeof Event.Type

export const eventVersions = {
  MemberAccountOpened: { current: 1 },
  MemberAccountCredited: { current: 1 },
} as const
