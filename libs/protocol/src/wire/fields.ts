/**
 * Field shapes shared by several operations. Lengths are the spec's String(n)
 * (docs/api.md#operations); amounts use the kernel's
 * exact Money codecs.
 */
import {
  AmountFromWire,
  BoundedString,
  type Fils,
  isSha256Hex,
  PlainText,
  RequiredString,
  WholeNumber,
} from "@mizan/kernel"
import { Schema, SchemaTransformation } from "effect"
import type { SensitiveFieldRule } from "../field-encryption.ts"

/** The merchant's reference of an order, refund or transfer: String(64). */
export const MerchantOrderNo = RequiredString(64)

/**
 * The service's order number. The spec bounds it at 64 where it gives a length
 * (refund's originOrderNo, refundOrder.orderNo); the service issues shorter
 * ones, so 64 never refuses a number it issued.
 */
export const OrderNo = RequiredString(64)

export const NotifyUrl = BoundedString(200)

/**
 * An object, also read from an empty list: PHP's `json_encode` writes an
 * empty array as `[]` where the merchant meant an empty object
 * (`"amountDetail":[]`). A non-empty list is still refused; answers always
 * write the object.
 */
export const ObjectOrEmptyList = <S extends Schema.Codec<object, object, never, never>>(object: S) =>
  Schema.Union([
    object,
    Schema.Tuple([]).pipe(
      Schema.decodeTo(
        object,
        SchemaTransformation.transform<S["Encoded"], readonly []>({
          decode: () => ({}) as S["Encoded"],
          encode: () => [],
        }),
      ),
    ),
  ])

/** A String the spec gives no length for. The gateway's body size limit bounds it. */
export const Text = PlainText

/** A required String the spec gives no length for: at least one character that is not white space. */
export const RequiredText = PlainText.check(
  Schema.makeFilter((s: string) => s.trim().length > 0, { message: "must not be empty" }),
)

/** `sharingIdentitySeqId`: "serial number 1, 2, 3 and so on". */
export const SeqId = WholeNumber.check(Schema.isGreaterThanOrEqualTo(1, { message: "must be a whole number from 1" }))

/** The last 4 digits of a card: the only part of a card number that may leave the edge. */
export const Last4 = Schema.String.check(
  Schema.makeFilter((s: string) => /^[0-9]{4}$/.test(s), { message: "must be the last 4 digits of the card" }),
)

/** Who a wallet transfer or a sharing item names: "PHONE_NO or MEMBER_ID". */
export const IdentityType = Schema.Literals(["PHONE_NO", "MEMBER_ID"]).annotate({
  message: 'must be "PHONE_NO" or "MEMBER_ID"',
})

/**
 * "Exactly one of `a` or `b`; both together are not allowed" (get order,
 * revoke, cancel, get refund; "one of two" for the refund's origin order).
 * The message names the field to add or remove.
 */
export const exactlyOneOf = <A extends string, B extends string>(a: A, b: B) =>
  Schema.makeFilter((input: { readonly [K in A | B]?: unknown }) => {
    const hasA = input[a] !== undefined
    const hasB = input[b] !== undefined
    if (hasA && hasB) return { path: [b], issue: `must be absent when ${a} is given (send exactly one of the two)` }
    if (!hasA && !hasB) return { path: [a], issue: `is required when ${b} is absent` }
    return undefined
  })

// Decimals other than AED amounts: quantities and exchange rates.

/** A double holds 15 significant decimal digits exactly, so such a decimal survives a JSON number round trip. */
const exactDigitsMax = 15

/**
 * A non-negative decimal with at most `integerDigitsMax` digits before the
 * point and `fractionDigitsMax` after, no exponent. Decoded to its text, so
 * nothing is rounded; encoded back to a JSON number, which is exact because
 * the total number of digits stays within what a double holds.
 */
export const DecimalFromWire = (integerDigitsMax: number, fractionDigitsMax: number) => {
  if (integerDigitsMax + fractionDigitsMax > exactDigitsMax)
    throw new RangeError(`a decimal of ${integerDigitsMax}+${fractionDigitsMax} digits cannot round-trip a JSON number`)
  const pattern = new RegExp(`^(?:0|[1-9][0-9]{0,${integerDigitsMax - 1}})(?:\\.[0-9]{1,${fractionDigitsMax}})?$`)
  const message = `must be a decimal with at most ${integerDigitsMax} digits before the point and ${fractionDigitsMax} after, not negative, with no exponent`
  const textOf = (input: number | string): string => (typeof input === "number" ? String(input) : input)
  return Schema.Union([Schema.Number, Schema.String])
    .check(Schema.makeFilter((input) => pattern.test(textOf(input)), { message }))
    .pipe(
      Schema.decodeTo(
        Schema.String,
        SchemaTransformation.transform<string, number | string>({
          decode: textOf,
          encode: (text): number => Number(text),
        }),
      ),
    )
}

/** The rate of a payout: fundoutAmount / orderAmount; "rounded to two decimals", yet the sample carries more. */
export const RateFromWire = DecimalFromWire(5, 10)

/** `goodsDetail.quantity`: "Decimal, 12 digits before and 2 after the point". */
export const QuantityFromWire = DecimalFromWire(12, 2)

/** A currency a payout is received in: "AED", "USD" (max 16, as the bank transfer order says). */
export const CurrencyCode = RequiredString(16)

/**
 * Money in the currency a payout is received in (`fundoutAmount`): the Money
 * shape, but not only AED, so it cannot be fils. Decoded to hundredths of the
 * currency's unit, exactly as the Money rule reads (12 digits, 2 decimals).
 */
export const ForeignMoneyFromWire = Schema.Struct({ amount: AmountFromWire, currency: CurrencyCode }).pipe(
  Schema.decodeTo(
    Schema.Struct({ amountMinor: Schema.Int, currency: CurrencyCode }),
    SchemaTransformation.transform({
      decode: (money) => ({ amountMinor: money.amount as number, currency: money.currency }),
      encode: (money) => ({ amount: money.amountMinor as Fils, currency: money.currency }),
    }),
  ),
)
export type ForeignMoney = typeof ForeignMoneyFromWire.Type

// Sensitive fields: sent encrypted, or as their SHA-256 where that is accepted (docs/api.md#encrypted-fields).

/** UTF-8 takes at most 3 bytes per UTF-16 code unit. */
const utf8BytesPerCharMax = 3
/** Service keys this protocol expects: 2048, 3072 and 4096 bits. */
const serviceKeyBytes = [256, 384, 512] as const
const pkcs1PaddingBytes = 11

/** One block of a 2048-bit key in Base64: the shortest ciphertext there is. */
export const ciphertextMinChars = 4 * Math.ceil(serviceKeyBytes[0] / 3)

/** The longest Base64 ciphertext a clear value of `clearMaxChars` can produce under any supported key. */
export const ciphertextMaxChars = (clearMaxChars: number): number =>
  Math.max(
    ...serviceKeyBytes.map((keyBytes) => {
      const blocks = Math.max(1, Math.ceil((clearMaxChars * utf8BytesPerCharMax) / (keyBytes - pkcs1PaddingBytes)))
      return 4 * Math.ceil((blocks * keyBytes) / 3)
    }),
  )

/** A sensitive request field: its rule (for the gateway's decryption) and its wire schema. */
export interface SensitiveField extends SensitiveFieldRule {
  readonly schema: Schema.Codec<string>
}

/**
 * A field "sent encrypted" (optionally as its SHA-256 hex instead). The wire
 * schema checks only its form, since the spec's String(n) bounds the clear
 * value; the gateway decrypts it with `digestOfSensitive` or
 * `revealSensitive` and this field's rule, which checks the clear length.
 */
export const sensitiveField = (clearMaxChars: number, accepts: "encrypted" | "encrypted-or-digest"): SensitiveField => {
  const digestAccepted = accepts === "encrypted-or-digest"
  const maxChars = ciphertextMaxChars(clearMaxChars)
  const message = digestAccepted
    ? "must be encrypted with the service's public key (Base64) or be the lower-case hex SHA-256 of the value"
    : "must be encrypted with the service's public key (Base64)"
  const schema = Schema.String.check(
    Schema.makeFilter((value: string) => {
      if (digestAccepted && isSha256Hex(value)) return undefined
      const compact = value.replace(/\s+/g, "")
      // Base64 of at least one block of the smallest key: a clear value cannot pass for it.
      // Whether the blocks are whole is decryption's to say.
      if (compact.length < ciphertextMinChars || !/^[A-Za-z0-9+/=]+$/.test(compact)) return message
      if (compact.length > maxChars) return `is longer than any encrypted value of at most ${clearMaxChars} characters`
      return undefined
    }),
  )
  return { clearMaxChars, digestAccepted, schema }
}

/** The keys of `T` that may be absent: the only ones a decoded request may drop, since encoding cannot give them back. */
type OptionalKeyOf<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? K : never }[keyof T]

/**
 * The decoded request: the wire's type, its `Dropped` keys left out and its
 * keys renamed. Named, so that the emitted declarations carry this plain
 * mapped type: inferred, they spelled out a struct of the renamed fields that
 * a consumer's `tsc` without `skipLibCheck` refused.
 */
export type DomainOf<Wire, Renames, Dropped extends PropertyKey> = {
  [K in keyof Wire as K extends Dropped
    ? never
    : K extends keyof Renames
      ? Exclude<Renames[K], undefined> & PropertyKey
      : K]: Wire[K]
}

/**
 * A request decoded as the domain names it: the wire struct decodes first,
 * every check on the keys the client sent, then the keys are renamed
 * (`amount` → `amountFils`) and the ones the domain does not keep, once
 * checked, are dropped. Encoding renames them back; a dropped key stays
 * absent, so only optional ones can be dropped (the type says so). This is not
 * `Schema.encodeKeys`, which renames before the fields' own checks run, so
 * that a check on the decoded value (an amount above zero) would name the
 * domain's key in head.msg instead of the field the client sent.
 */
export const withDomainNames = <
  Fields extends Schema.Struct.Fields,
  const Renames extends { readonly [K in keyof Fields]?: string },
  const Dropped extends ReadonlyArray<OptionalKeyOf<Schema.Struct<Fields>["Type"]> & keyof Fields>,
>(
  wire: Schema.Struct<Fields>,
  renames: Renames,
  ...dropped: Dropped
): Schema.decodeTo<
  Schema.declare<DomainOf<Schema.Struct<Fields>["Type"], Renames, Dropped[number]>>,
  Schema.Struct<Fields>
> => {
  type Wire = (typeof wire)["Type"]
  type Domain = DomainOf<Wire, Renames, Dropped[number]>
  const wireNames = Object.fromEntries(Object.entries(renames).map(([wireName, domainName]) => [domainName, wireName]))
  const droppedKeys = new Set<PropertyKey>(dropped)
  return wire.pipe(
    Schema.decodeTo(
      // The wire side has checked every field: the renamed value is the domain's by construction, checked again by nothing.
      Schema.declare((_: unknown): _ is Domain => true),
      SchemaTransformation.transform<Domain, Wire>({
        decode: (request) => renamedKeys(renames, droppedKeys)(request) as Domain,
        encode: (request) => renamedKeys(wireNames, droppedKeys)(request) as Wire,
      }),
    ),
  )
}

/** The same value with the keys `names` names renamed and the `dropped` ones left out. */
const renamedKeys =
  (names: Readonly<Record<string, string | undefined>>, dropped: ReadonlySet<PropertyKey>) =>
  (value: object): Readonly<Record<string, unknown>> =>
    Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !dropped.has(key))
        .map(([key, v]) => [names[key] ?? key, v]),
    )
