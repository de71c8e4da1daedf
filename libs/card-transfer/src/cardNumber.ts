/**
 * The clear card number, in the one place it may exist: the command that
 * hands it to the bank port (docs/architecture.md#the-domain). It is a value
 * the event schemas cannot hold (no event field has its type), and it hides
 * its digits from every way a value gets written by accident: JSON,
 * String(), template strings and Node's inspect all show "****1234". Only
 * `reveal()` gives the digits, for the bank port.
 *
 * The edge builds it from the decrypted value and that value's SHA-256
 * digest (the domain cannot hash: it imports no crypto). The decider takes
 * from it only `digest` and `last4`, and checks `digitCount` and
 * `isNumericOnly` (12 to 19 digits, numeric only).
 */
import type { Sha256Hex } from "@mizan/kernel"

const inspectSymbol = Symbol.for("nodejs.util.inspect.custom")

export class CardNumber {
  readonly #digits: string
  /** SHA-256 (hex) of the clear card number: what the order keeps and returns as `cardNumber`. */
  readonly digest: Sha256Hex

  constructor(clear: string, digest: Sha256Hex) {
    this.#digits = clear
    this.digest = digest
  }

  get digitCount(): number {
    return this.#digits.length
  }

  get isNumericOnly(): boolean {
    return /^[0-9]+$/.test(this.#digits)
  }

  /** The last 4 characters: the only part of the number an order may keep in clear. */
  get last4(): string {
    return this.#digits.slice(-4)
  }

  /** The clear digits, for the bank port alone. */
  reveal(): string {
    return this.#digits
  }

  get masked(): string {
    return `****${this.last4}`
  }

  toJSON(): string {
    return this.masked
  }

  toString(): string {
    return this.masked
  }

  [inspectSymbol](): string {
    return `CardNumber(${this.masked})`
  }
}
