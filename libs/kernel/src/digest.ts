import { Schema } from "effect"

const sha256Hex = /^[0-9a-f]{64}$/

/**
 * A lower-case hex SHA-256 digest. Sensitive values (card numbers, names,
 * IBANs, identities) live in events only in this form.
 */
export const Sha256Hex = Schema.String.check(
  Schema.makeFilter((s: string) => sha256Hex.test(s), {
    message: "must be a lower-case hex SHA-256 digest (64 characters)",
  }),
).pipe(Schema.brand("Sha256Hex"))
export type Sha256Hex = typeof Sha256Hex.Type

export const isSha256Hex = (s: string): s is Sha256Hex => sha256Hex.test(s)
