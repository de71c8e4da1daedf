/**
 * Encrypted request fields at the edge (Authentication 6; wire-conventions:
 * Encrypted request fields): decrypted with the service's private key and
 * turned into digests here, so only digests (and a card's last 4) go on to
 * the domain. A field that does not decrypt is the client's mistake: 400
 * INVALID_PARAMETER naming the field, never echoing the value.
 */
import { reject, type Sha256Hex } from "@mizan/kernel"
import { digestOfSensitive, type OperationPath, operations, revealSensitive } from "@mizan/protocol"
import { Effect, Result } from "effect"
import { Gateway } from "./gateway.ts"

const ruleOf = (path: OperationPath, field: string) => {
  const rule = (
    operations[path].sensitive as Readonly<Record<string, { clearMaxChars: number; digestAccepted: boolean }>>
  )[field]
  if (rule === undefined) throw new Error(`${path} has no sensitive field ${field}`)
  return rule
}

/** The digest a sensitive field is kept as. `field` names its rule; `fieldPath` is what head.msg says. */
export const digestField = (path: OperationPath, field: string, value: string, fieldPath = field) =>
  Effect.flatMap(Gateway, (gateway) => {
    const digest = digestOfSensitive(value, gateway.servicePrivateKey, ruleOf(path, field))
    return Result.isSuccess(digest)
      ? Effect.succeed<Sha256Hex>(digest.success)
      : Effect.fail(reject("INVALID_PARAMETER", `bizContent.${fieldPath} ${digest.failure.problem}`))
  })

/** The clear value of an encrypted field, for checks that need it (card digits, expiry); the caller drops it. */
export const revealField = (path: OperationPath, field: string, value: string) =>
  Effect.flatMap(Gateway, (gateway) => {
    const clear = revealSensitive(value, gateway.servicePrivateKey, ruleOf(path, field))
    return Result.isSuccess(clear)
      ? Effect.succeed(clear.success)
      : Effect.fail(reject("INVALID_PARAMETER", `bizContent.${field} ${clear.failure.problem}`))
  })
