/**
 * Bank card transfer commands as the edge builds them, for a platform's
 * tests: the clear card number wrapped in a `CardNumber` with a stand-in
 * digest (the domain cannot hash; tests never need the real SHA-256), the
 * holder's names as digests.
 */
import { fils, type Sha256Hex, type Timestamp, timestamp } from "@mizan/kernel"
import { CardNumber } from "../cardNumber.ts"
import type { BankCardTransferRequest, Command, PlaceBankCardTransfer } from "../commands.ts"
import type { LegalNameShape } from "../legalName.ts"
import { bankCardTransferProduct } from "../state.ts"

/** 2026-03-01T10:00:00Z: when the placements here are made. */
export const cardPlacedAt: Timestamp = timestamp(Date.UTC(2026, 2, 1, 10))

/** A well-formed SHA-256 hex digest standing for the n-th name (the kit never needs clear names). */
export const nameDigest = (n: number): Sha256Hex => n.toString(16).padStart(64, "0") as Sha256Hex

/**
 * A stand-in for the SHA-256 the edge computes of a clear card number: FNV-1a
 * of the text, repeated to 64 hex digits. Distinct numbers get distinct
 * digests in practice, and the digest never spells the number out.
 */
export const standInDigest = (clear: string): Sha256Hex => {
  let hash = 0x811c9dc5
  for (const char of clear) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0
  return hash.toString(16).padStart(8, "0").repeat(8) as Sha256Hex
}

/** A clear card number as the edge hands it to the decider. */
export const cardNumberOf = (clear: string): CardNumber => new CardNumber(clear, standInDigest(clear))

export interface PlaceCardTransferOptions {
  readonly clearCardNumber?: string
  /** The card as the edge wraps it, when the test digests it itself; `clearCardNumber` with a stand-in digest otherwise. */
  readonly cardNumber?: CardNumber
  readonly holder?: "INDIVIDUAL" | "CORPORATE"
  /** A CORPORATE holder's measured company name; PLAUSIBLE by default. */
  readonly companyNameShape?: LegalNameShape
  readonly request?: Partial<BankCardTransferRequest>
  readonly enabled?: boolean
  readonly now?: Timestamp
}

/**
 * Merchant `M1`'s bank card transfer `K-1` of AED 500 to an individual's
 * card 4111 1111 1111 1111 expiring 09/2028, at 1.5% plus 1 AED, unless the
 * options say otherwise.
 *
 *   placeCardTransfer({ holder: "CORPORATE", request: { amountFils: fils(1) } })
 */
export const placeCardTransfer = (options: PlaceCardTransferOptions = {}): PlaceBankCardTransfer => {
  const now = options.now ?? cardPlacedAt
  const corporate = options.holder === "CORPORATE"
  return {
    _tag: "PlaceBankCardTransfer",
    merchantId: "M1",
    orderNo: "C0001",
    requestTime: now,
    now,
    request: {
      merchantOrderNo: "K-1",
      ...(corporate
        ? { accountHolderType: "CORPORATE", companyName: nameDigest(3) }
        : { accountHolderType: "INDIVIDUAL", firstName: nameDigest(1), lastName: nameDigest(2) }),
      amountFils: fils(50_000),
      expiryYear: "2028",
      expiryMonth: "09",
      ...options.request,
    },
    cardNumber: options.cardNumber ?? cardNumberOf(options.clearCardNumber ?? "4111111111111111"),
    ...(corporate ? { companyNameShape: options.companyNameShape ?? "PLAUSIBLE" } : {}),
    enabledProducts: options.enabled === false ? [] : [bankCardTransferProduct],
    feePlan: { basisPoints: 150, fixedFils: fils(100) },
    payerFeeMemberId: "100000000099",
  }
}

/** The bank's report on transfer `K-1`, a day after it was placed. */
export const cardPayoutReport = (
  outcome: Extract<Command, { _tag: "RecordCardPayoutOutcome" }>["outcome"],
): Command => ({
  _tag: "RecordCardPayoutOutcome",
  merchantId: "M1",
  now: timestamp(cardPlacedAt + 86_400_000),
  outcome,
})

/** The report that a failed payout's amount went back to the payer, two days after the placement. */
export const cardPayoutRefund: Command = {
  _tag: "RecordPayoutRefund",
  merchantId: "M1",
  now: timestamp(cardPlacedAt + 2 * 86_400_000),
}
