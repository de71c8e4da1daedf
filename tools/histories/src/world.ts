/**
 * What every story of a generated history shares: the seeded generator, the
 * simulated clock, the merchants and sandbox members, and the numbers the
 * edge would issue. Clear names, card numbers and IBANs are made up here and
 * digested at once, as the gateway does (docs/api.md#encrypted-fields): only
 * digests and a card's last 4 digits reach a command's event.
 */

import { createHash } from "node:crypto"
import { type FeePlan, fils, formatCompactUtc, type Sha256Hex, type Timestamp, timestamp } from "@mizan/kernel"
import type { SandboxMember } from "@mizan/order-flows"
import { type PayoutAbility, rate } from "@mizan/transfer"
import type { SimulatedClock } from "./clock.ts"
import type { Random } from "./random.ts"

export const sha256 = (text: string): Sha256Hex => createHash("sha256").update(text, "utf8").digest("hex") as Sha256Hex

/** The gateway's kinds of service order number (its orderIndex.ts), each with the digit its numbers carry. */
export const orderKindDigits = {
  acquiring: "1",
  refund: "2",
  walletTransfer: "3",
  bankTransfer: "4",
  cardTransfer: "5",
  vamDeposit: "6",
} as const
export type OrderKind = keyof typeof orderKindDigits

export interface Merchant {
  readonly merchantId: string
  readonly acquiringFeePlan: FeePlan
}

export interface World {
  readonly random: Random
  readonly clock: SimulatedClock
  readonly merchants: ReadonlyArray<Merchant>
  readonly members: ReadonlyArray<SandboxMember>
  readonly now: () => Timestamp
  /** A merchant's reference, unique in the history: `ORD-0000042`. */
  readonly merchantNumber: (prefix: string) => string
  /** A service order number in the gateway's format: UTC time to the second, a kind digit, 11 digits. */
  readonly serviceOrderNo: (kind: OrderKind) => string
  /** Counts a business refusal (a request the service answered with a code). */
  readonly refused: (code: string) => void
}

const givenNames = ["AISHA", "OMAR", "FATIMA", "KHALID", "MARIAM", "YOUSEF", "LAYLA", "HAMAD", "NOOR", "SAEED"]
const familyNames = ["AL MANSOURI", "AL NAHYAN", "HASSAN", "AL FALASI", "KHAN", "AL SUWAIDI", "RAHMAN", "AL BLOOSHI"]

export const personName = (random: Random): string => `${random.pick(givenNames)} ${random.pick(familyNames)}`

const membersFor = (random: Random, count: number): ReadonlyArray<SandboxMember> =>
  Array.from({ length: count }, (_, i) => {
    const memberId = `1${String(i + 1).padStart(11, "0")}`
    return {
      memberId,
      memberIdDigest: sha256(memberId),
      phoneNoDigest: sha256(`+9715${random.digits(8)}`),
      fullName: sha256(personName(random)),
      openingBalanceFils: fils(random.int(0, 500_000)),
    }
  })

export interface WorldOptions {
  readonly random: Random
  readonly clock: SimulatedClock
  readonly merchantCount: number
  readonly memberCount: number
  readonly refusals: Map<string, number>
}

export const makeWorld = ({ random, clock, merchantCount, memberCount, refusals }: WorldOptions): World => {
  const merchants = Array.from({ length: merchantCount }, (_, i) => ({
    merchantId: `M${String(i + 1).padStart(4, "0")}`,
    acquiringFeePlan: { basisPoints: random.pick([150, 200, 250, 275]), fixedFils: fils(random.pick([0, 50, 100])) },
  }))
  let numbers = 0
  return {
    random,
    clock,
    merchants,
    members: membersFor(random, memberCount),
    now: () => timestamp(clock.nowMs),
    merchantNumber: (prefix) => `${prefix}-${String(++numbers).padStart(7, "0")}`,
    serviceOrderNo: (kind) => `${formatCompactUtc(timestamp(clock.nowMs))}${orderKindDigits[kind]}${random.digits(11)}`,
    refused: (code) => void refusals.set(code, (refusals.get(code) ?? 0) + 1),
  }
}

/** The payout networks every generated merchant has enabled, with their fee plans. */
export const payoutAbilities: ReadonlyArray<PayoutAbility> = [
  {
    countryCode: "UAE",
    fundoutCurrencyCode: "AED",
    networkCode: "LOCAL",
    name: "UAEFTS",
    beneficiaryType: "IBAN",
    feePlan: { basisPoints: 0, fixedFils: fils(200) },
  },
  {
    countryCode: "US",
    fundoutCurrencyCode: "USD",
    networkCode: "SWIFT",
    name: "SWIFT",
    beneficiaryType: "IBAN",
    feePlan: { basisPoints: 25, fixedFils: fils(1_500) },
  },
  {
    countryCode: "KW",
    fundoutCurrencyCode: "KWD",
    networkCode: "SWIFT",
    name: "SWIFT",
    beneficiaryType: "IBAN",
    feePlan: { basisPoints: 25, fixedFils: fils(1_500) },
  },
]

/** AED to each payout currency, as a rate source would quote it. */
export const quotedRates = { AED: rate("1"), USD: rate("0.2723"), KWD: rate("0.0837") } as const
