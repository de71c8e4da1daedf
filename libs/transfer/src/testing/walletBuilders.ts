import { type FeePlan, fils, type Sha256Hex, type Timestamp } from "@mizan/kernel"
import type { Beneficiary, PlaceWalletTransfer, WalletTransferRequest } from "../wallet/commands.ts"

export interface PlaceWalletTransferOptions {
  readonly merchantId?: string
  readonly orderNo?: string
  readonly now: Timestamp
  /** The beneficiary's identity digest (`PHONE_NO`) and the member the directory finds for it. */
  readonly beneficiaryIdentity: Sha256Hex
  readonly beneficiary: Beneficiary
  readonly feePlan?: FeePlan
  readonly request?: Partial<WalletTransferRequest>
}

/**
 * A wallet transfer as the gateway places it: merchant `M1`'s `W-1` of
 * AED 1,000 with the memo "salary", to a phone number, at 1% plus 50 fils,
 * unless the options say otherwise.
 */
export const placeWalletTransfer = (options: PlaceWalletTransferOptions): PlaceWalletTransfer => ({
  _tag: "PlaceWalletTransfer",
  merchantId: options.merchantId ?? "M1",
  orderNo: options.orderNo ?? "T0001",
  requestTime: options.now,
  now: options.now,
  request: {
    merchantOrderNo: "W-1",
    beneficiaryIdentityType: "PHONE_NO",
    beneficiaryIdentity: options.beneficiaryIdentity,
    amountFils: fils(100_000),
    memo: "salary",
    ...options.request,
  },
  beneficiary: options.beneficiary,
  feePlan: options.feePlan ?? { basisPoints: 100, fixedFils: fils(50) },
})
