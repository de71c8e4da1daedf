/**
 * Wallet transfer and its query (docs/api.md#wallet-transfer,
 * docs/api.md#get-wallet-transfer; the query names its transfer by its
 * merchantOrderNo).
 */
import { BoundedString, MoneyFromWire, Personal, PositiveMoneyFromWire, Sha256Hex, Timestamp } from "@mizan/kernel"
import { Schema } from "effect"
import { IdentityType, MerchantOrderNo, NotifyUrl, sensitiveField, Text, withDomainNames } from "./fields.ts"

export const walletTransferSensitive = {
  beneficiaryIdentity: sensitiveField(20, "encrypted-or-digest"),
  beneficiaryFullName: sensitiveField(100, "encrypted-or-digest"),
} as const

/** The wallet transfer request; decoded, its amount is named in fils (`amountFils`) as the domain names it. */
export const WalletTransferRequest = withDomainNames(
  Schema.Struct({
    merchantOrderNo: MerchantOrderNo,
    beneficiaryIdentityType: IdentityType,
    beneficiaryIdentity: walletTransferSensitive.beneficiaryIdentity.schema,
    beneficiaryFullName: Schema.optionalKey(walletTransferSensitive.beneficiaryFullName.schema),
    amount: PositiveMoneyFromWire,
    memo: BoundedString(200),
    notifyUrl: Schema.optionalKey(NotifyUrl),
  }),
  { amount: "amountFils" },
)

/** Get wallet transfer, get bank transfer and get bank card transfer name the order by the merchant's number. */
export const MerchantOrderIndexRequest = Schema.Struct({ merchantOrderNo: MerchantOrderNo })

export const TransferOrderStatus = Schema.Literals(["CREATED", "SUCCESS", "FAILURE"])

export const TransferOrder = Schema.Struct({
  requestTime: Timestamp,
  merchantOrderNo: MerchantOrderNo,
  orderNo: Text,
  product: BoundedString(100),
  status: TransferOrderStatus,
  paymentInfo: Schema.optionalKey(Schema.Struct({ payerFeeAmount: MoneyFromWire, arrivalTime: Timestamp })),
  amount: MoneyFromWire,
  beneficiaryIdentityType: IdentityType,
  // String(20) in the table, yet "returned as SHA-256 digest", which is 64
  // characters: the digest wins.
  // Both read `[forgotten]` once the member is forgotten (docs/api.md#forgotten-personal-data).
  beneficiaryIdentity: Personal(Sha256Hex),
  beneficiaryFullName: Schema.optionalKey(Personal(Sha256Hex)),
  // String(128) in the order table but String(200) in the request: the order
  // must be able to return what the request accepted.
  memo: BoundedString(200),
  notifyUrl: Schema.optionalKey(NotifyUrl),
  failCode: Schema.optionalKey(Text),
  failDes: Schema.optionalKey(Text),
})
export type TransferOrder = typeof TransferOrder.Type

export const TransferOrderResponse = Schema.Struct({ transferOrder: TransferOrder })
