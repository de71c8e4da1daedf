import { Personal, Sha256Hex, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { MerchantId, NotifyUrl } from "../common/fields.ts"
import { VamDepositReport } from "./commands.ts"

export const VamDepositReceived = Schema.TaggedStruct("VamDepositReceived", {
  merchantId: MerchantId,
  ...VamDepositReport.fields,
  // Personal (sealingPlan.ts): `[forgotten]` once the remitter is forgotten.
  remitterInfo: Schema.optionalKey(Personal(Sha256Hex)),
  notifyUrl: Schema.optionalKey(NotifyUrl),
  at: Timestamp,
})
export type VamDepositReceived = typeof VamDepositReceived.Type

/** A PENDING deposit reaches its final status. */
export const VamDepositSettled = Schema.TaggedStruct("VamDepositSettled", {
  status: Schema.Literals(["SUCCESS", "FAILED"]),
  transactionTime: Timestamp,
  at: Timestamp,
})
export type VamDepositSettled = typeof VamDepositSettled.Type

export const Event = Schema.Union([VamDepositReceived, VamDepositSettled])
export type Event = typeof Event.Type

export const eventVersions = {
  VamDepositReceived: { current: 1 },
  VamDepositSettled: { current: 1 },
} as const

/** Every event of a deposit changes its status, so the notifier announces each one as `vamDepositOrder`. */
export const announcedEvents: ReadonlyArray<Event["_tag"]> = ["VamDepositReceived", "VamDepositSettled"]
