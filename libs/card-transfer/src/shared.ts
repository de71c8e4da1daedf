/**
 * Order keys and request checks shared by every transfer order. The same
 * helpers live in @mizan/transfer's src/shared: a domain lib may import only
 * effect, the kernel and eventsourcing, so they cannot be shared from there
 * (they are candidates for the kernel).
 */
import { BoundedString, issueMessage, type Rejection, RequiredString, reject } from "@mizan/kernel"
import { Equal, Result, Schema } from "effect"

export const MerchantId = RequiredString(12)
export const MerchantOrderNo = RequiredString(64)
export const OrderNo = RequiredString(32)
export const NotifyUrl = BoundedString(200)

/** Injective stream ids: each part escapes "%" and "/" before the parts are joined with "/". */
export const streamIdOf = (kind: string, ...parts: ReadonlyArray<string>): string =>
  [kind, ...parts.map((part) => part.replaceAll("%", "%25").replaceAll("/", "%2F"))].join("/")

/** Whether every field of the request schema compares equal between a repeat and the recorded order. */
export const sameRequest = (fields: Readonly<Record<string, unknown>>, request: object, recorded: object): boolean =>
  Object.keys(fields).every((key) =>
    Equal.equals((request as Record<string, unknown>)[key], (recorded as Record<string, unknown>)[key]),
  )

/** A request's schema rules, checked on the decoded side: 400 INVALID_PARAMETER naming the field. */
export const checkRequest = <S extends Schema.Constraint>(schema: S, request: S["Type"]): Rejection | undefined => {
  const checked = Schema.decodeUnknownResult(Schema.toType(schema))(request)
  return Result.isFailure(checked)
    ? reject("INVALID_PARAMETER", issueMessage(checked.failure.issue, ["bizContent"]))
    : undefined
}
