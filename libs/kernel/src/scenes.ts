/**
 * The payment scene codes the spec lists (Create-order scene parameters).
 * Its list is open ("and others, etc."), but a code it does not name is
 * refused with 62012 PAYSCENECODE_ILLEGAL: the wire lets any text through,
 * the acquiring order decides.
 */
export const paySceneCodes = [
  "PAYPAGE",
  "INAPP",
  "EWALLET",
  "DYNQR",
  "QRPAY",
  "JSAPI",
  "AUTODEBIT",
  "DIRECTPAY",
  "CASHTOPUP",
  "PAYANDSIGN",
] as const
export type PaySceneCode = (typeof paySceneCodes)[number]

export const isPaySceneCode = (code: string): code is PaySceneCode =>
  (paySceneCodes as ReadonlyArray<string>).includes(code)
