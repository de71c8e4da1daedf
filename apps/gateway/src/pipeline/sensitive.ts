/**
 * Encrypted request fields at the edge
 * (docs/api.md#encrypted-fields): decrypted with the service's private key and
 * turned into digests here, so only digests (and a card's last 4) go on to
 * the domain. A field that does not decrypt is the client's mistake: 400
 * INVALID_PARAMETER naming the field, never echoing the value.
 */
import { reject, type Sha256Hex } from "@mizan/kernel"
import { digestOfSensitive, type OperationPath, operations, revealSensitive } from "@mizan/protocol"
import { Effect, Result } from "effect"
import { ApiSettings } from "./apiSettings.ts"

const ruleOf = (path: OperationPath, field: string) => {
  const rule = (
    operations[path].sensitive as Readonly<Record<string, { clearMaxChars: number; digestAccepted: boolean }>>
  )[field]
  if (rule === undefined) throw new Error(`${path} has no sensitive field ${field}`)
  return rule
}

/** The digest a sensitive field is kept as. `field` names its rule; `fieldPath` is what head.msg says. */
export const digestField = (path: OperationPath, field: string, value: string, fieldPath = field) =>
  Effect.flatMap(ApiSettings, (gateway) => {
    const digest = digestOfSensitive(value, gateway.servicePrivateKey, ruleOf(path, field))
    return Result.isSuccess(digest)
      ? Effect.succeed<Sha256Hex>(digest.success)
      : Effect.fail(reject("INVALID_PARAMETER", `bizContent.${fieldPath} ${digest.failure.problem}`))
  })

/** The clear value of an encrypted field, for checks that need it (card digits, expiry); the caller drops it. */
export const revealField = (path: OperationPath, field: string, value: string) =>
  Effect.flatMap(ApiSettings, (gateway) => {
    const clear = revealSensitive(value, gateway.servicePrivateKey, ruleOf(path, field))
    return Result.isSuccess(clear)
      ? Effect.succeed(clear.success)
      : Effect.fail(reject("INVALID_PARAMETER", `bizContent.${field} ${clear.failure.problem}`))
  })

/** A sharing item as create order and refund decode it: the identity still encrypted (or as its digest). */
interface WireSharingItem {
  readonly sharingIdentity: string
}

/**
 * A sharingParamList as the domain keeps it: each identity digested (its
 * field named by index in head.msg when it does not decrypt); the amounts
 * arrive already named in fils by the wire's schema.
 */
export const digestSharingList = <Item extends WireSharingItem>(
  path: "/acquire2/placeOrder" | "/acquire2/refund/placeOrder",
  list: ReadonlyArray<Item>,
) =>
  Effect.forEach(list, (item, i) =>
    Effect.map(
      digestField(
        path,
        "sharingParamList[].sharingIdentity",
        item.sharingIdentity,
        `sharingParamList[${i}].sharingIdentity`,
      ),
      (sharingIdentity) => ({ ...item, sharingIdentity }),
    ),
  )

/** Decrypts an optional encrypted field of an operation; absent stays absent (400 naming it when it does not decrypt). */
export const revealOptional = (path: Parameters<typeof revealField>[0], field: string, value: string | undefined) =>
  value === undefined ? Effect.succeed(undefined) : revealField(path, field, value)
