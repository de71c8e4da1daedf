/**
 * @mizan/protocol: the merchant wire protocol. Signatures, encrypted fields,
 * exact-number JSON, the envelope, every operation's wire schemas and the
 * notifications. Shared by the gateway (service side) and the merchant client.
 */
export * from "./envelope.ts"
export * from "./field-encryption.ts"
export * from "./json.ts"
export * from "./keys.ts"
export * from "./notifications.ts"
export * from "./operations.ts"
export * from "./signature.ts"
export * from "./urlPolicy.ts"
export * from "./wire/acquiring.ts"
export * from "./wire/card-transfer.ts"
export * from "./wire/fields.ts"
export * from "./wire/payout.ts"
export * from "./wire/refund.ts"
export * from "./wire/vam-deposit.ts"
export * from "./wire/wallet-transfer.ts"
