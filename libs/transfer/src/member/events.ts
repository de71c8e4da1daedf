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

export const MemberAccountCredited = Schema.TaggedStruct("MemberAccountCredited", {
  reference: OrderNo,
  amount: PositiveFils,
  balanceAfterFils: Fils,
  at: Timestamp,
})
export type MemberAccountCredited = typeof MemberAccountCredited.Type

export const Event = Schema.Union([MemberAccountOpened, MemberAccountCredited])
export type Event = typeof Event.Type

export const eventVersions = {
  MemberAccountOpened: { current: 1 },
  MemberAccountCredited: { current: 1 },
} as const
