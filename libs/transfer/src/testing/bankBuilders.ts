import { type FeePlan, fils, type Sha256Hex, type Timestamp } from "@mizan/kernel"
import type { BankTransferRequest, ClearTextLengths, PlaceBankTransfer } from "../bank/commands.ts"
import type { PayoutAbility } from "../payout/abilities.ts"
import { type Rate, rate } from "../payout/rate.ts"

/** A payout ability to an IBAN in the UAE, named after its network. */
export const payoutAbility = (networkCode: string, fundoutCurrencyCode: string, feePlan: FeePlan): PayoutAbility => ({
  countryCode: "UAE",
  fundoutCurrencyCode,
  networkCode,
  name: networkCode,
  beneficiaryType: "IBAN",
  feePlan,
})

export interface PlaceBankTransferOptions {
  readonly now: Timestamp
  /** The holder's name and IBAN as the gateway digests them. */
  readonly holderName: Sha256Hex
  readonly iban: Sha256Hex
  readonly merchantId?: string
  readonly orderNo?: string
  readonly request?: Partial<BankTransferRequest>
  readonly clearLengths?: ClearTextLengths
  readonly abilities?: ReadonlyArray<PayoutAbility>
  readonly rate?: Rate
  readonly arrivalDelayMinutes?: number
}

/**
 * A bank transfer as the gateway places it: merchant `M1`'s `P-1` of
 * AED 1,000, order `B0001`, a holder name of 17 characters and no address,
 * on the `LOCAL` network in AED at a rate of 1 with a 1% fee, expected an
 * hour after its placement, unless the options say otherwise.
 */
export const placeBankTransfer = (options: PlaceBankTransferOptions): PlaceBankTransfer => ({
  _tag: "PlaceBankTransfer",
  merchantId: options.merchantId ?? "M1",
  orderNo: options.orderNo ?? "B0001",
  requestTime: options.now,
  now: options.now,
  request: {
    merchantOrderNo: "P-1",
    amountFils: fils(100_000),
    holderName: options.holderName,
    iban: options.iban,
    ...options.request,
  },
  clearLengths: options.clearLengths ?? { holderNameChars: 17, beneficiaryAddressChars: 0 },
  abilities: options.abilities ?? [payoutAbility("LOCAL", "AED", { basisPoints: 100, fixedFils: fils(0) })],
  rate: options.rate ?? rate("1"),
  arrivalDelayMinutes: options.arrivalDelayMinutes ?? 60,
})
