/**
 * The stream of an acquiring order: one per merchant and merchantOrderNo
 * (docs/architecture.md#consistency). The merchant id's length goes first, so the id is
 * injective whatever characters the two parts hold: ("a-b", "c") and
 * ("a", "b-c") name different streams.
 */
export const acquiringStreamId = (merchantId: string, merchantOrderNo: string): string =>
  `acquiring-${merchantId.length}-${merchantId}-${merchantOrderNo}`
