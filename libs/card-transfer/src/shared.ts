/**
 * Order keys of the bank card transfer.
 */
export { MerchantId, MerchantOrderNo, NotifyUrl, OrderNo } from "@mizan/kernel"
