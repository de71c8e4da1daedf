/**
 * Records a real request and answer for every operation of a sandbox
 * gateway, for the OpenAPI description's examples (src/openapi/examples.ts),
 * and a few real refusals, whose codes must be among those the description
 * lists for their operation.
 *
 * What the service assigns differs from run to run, so it is replaced by
 * stand-ins before the recording is compared or kept: times become minutes
 * after a fixed instant (2026-11-24 08:00 UTC, keeping how far apart they
 * are), the service's order numbers and pay tokens become fixed ones of the
 * same shape, the test gateway's address a public one, the trace code one fixed code, and RSA ciphertexts (random by
 * design) a placeholder. Everything else is exactly what was sent and
 * received.
 */
import { sha256Hex } from "@mizan/protocol"
import { aed } from "../calls.ts"
import { merchantKeys, type TestGateway } from "../harness.ts"
import { postSigned } from "../raw.ts"

export interface Exchange {
  readonly request: unknown
  readonly answer: unknown
}

export interface Recording {
  readonly examples: Readonly<Record<string, Exchange>>
  readonly refusals: ReadonlyArray<Exchange & { readonly path: string }>
}

const exampleEpochMs = Date.UTC(2026, 10, 24, 8, 0)
const minuteMs = 60_000
const timeKeys = new Set([
  "requestTime",
  "expiredTime",
  "paidTime",
  "arrivalTime",
  "createdTime",
  "refundedTime",
  "transactionTime",
  "now",
])
/** The service's order numbers: the time to the second, a kind digit, 11 digits (libs/order-flows' orderIndex.ts). */
const isServiceNumber = (text: string): boolean => /^20\d{24}$/.test(text)
const encryptedPlaceholder = "<Base64 of the value RSA-encrypted with the service's public key>"
/** A clear RSA-2048 ciphertext in Base64 is 344 characters a block; nothing else a request sends is that long. */
const isCiphertext = (text: string): boolean => text.length >= 344 && /^[A-Za-z0-9+/]+=*$/.test(text)

/** Replaces what the service assigns with stand-ins, consistently: one value, one stand-in. */
const standIns = (runStartMs: number, baseUrl: string) => {
  const numbers = new Map<string, string>()
  const tokens = new Map<string, string>()
  const tokenOf = (token: string) => {
    if (!tokens.has(token)) tokens.set(token, `exampleToken${tokens.size + 1}`)
    return tokens.get(token) as string
  }
  const text = (value: string, key: string | undefined): string => {
    if (isServiceNumber(value)) {
      if (!numbers.has(value))
        numbers.set(value, `20261124080000${value.charAt(14)}${String(numbers.size + 1).padStart(11, "0")}`)
      return numbers.get(value) as string
    }
    if (key === "traceCode") return "5e4ebe5a40ff26ca"
    if (key === "expiryYear" && /^\d{4}$/.test(value)) return "2031"
    if (isCiphertext(value)) return encryptedPlaceholder
    for (const [, token] of value.matchAll(/\/pay\/([A-Za-z0-9_-]+)/g)) if (token !== undefined) tokenOf(token)
    // Links name the port the test gateway happened to listen on; a configured gateway names its publicBaseUrl.
    let replaced = value.replaceAll(baseUrl, "https://pay.merchant-gateway.example")
    for (const [token, standIn] of tokens) replaced = replaced.replaceAll(token, standIn)
    return replaced
  }
  const normalize = (value: unknown, key?: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => normalize(item))
    if (typeof value === "object" && value !== null)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v, k)]))
    if (typeof value === "number" && key !== undefined && timeKeys.has(key))
      return exampleEpochMs + Math.floor((value - runStartMs) / minuteMs) * minuteMs
    if (typeof value === "string") return text(value, key)
    return value
  }
  return normalize
}

/** The scenario: every operation once, in an order that gives each one something real to act on. */
export const recordExamples = async (gateway: TestGateway): Promise<Recording> => {
  const runStartMs = Date.now()
  const normalize = standIns(runStartMs, gateway.baseUrl)
  const client = gateway.merchant()
  const examples: Record<string, Exchange> = {}
  const refusals: Array<Exchange & { path: string }> = []
  const post = async (path: string, bizContent: unknown) => {
    const request = bizContent === undefined ? { requestTime: Date.now() } : { requestTime: Date.now(), bizContent }
    const answer = await postSigned(
      `${gateway.baseUrl}${path}`,
      JSON.stringify(request),
      "M1",
      merchantKeys("M1").privateKey,
    )
    return { request, answer: answer.json }
  }
  /** A call that must succeed; its exchange is the path's example (the first one kept). */
  const call = async <Body = Record<string, unknown>>(path: string, bizContent?: unknown): Promise<Body> => {
    const exchange = await post(path, bizContent)
    if (exchange.answer.head.code !== "0") throw new Error(`${path}: ${exchange.answer.head.msg}`)
    examples[path] ??= { request: normalize(exchange.request), answer: normalize(exchange.answer) }
    return exchange.answer.body as Body
  }
  const refuse = async (path: string, bizContent: unknown) => {
    const exchange = await post(path, bizContent)
    if (exchange.answer.head.code === "0") throw new Error(`${path}: expected a refusal`)
    refusals.push({ path, request: normalize(exchange.request), answer: normalize(exchange.answer) })
  }
  const api = (path: string) => `/sgs/api${path}`
  const box = (name: string) => `/sgs/sandbox/${name}`

  // Acquiring: create, read, pay, refund, settle; revoke, cancel and a failed attempt on orders of their own.
  const order = {
    merchantOrderNo: "ex-order-1",
    subject: "Coffee beans",
    totalAmount: aed(120.5),
    paySceneCode: "PAYPAGE",
    paySceneParams: { redirectUrl: "https://merchant.example/thanks" },
  }
  await call(api("/acquire2/placeOrder"), order)
  await call(api("/acquire2/getOrder"), { merchantOrderNo: "ex-order-1" })
  await call(box("payOrder"), { merchantOrderNo: "ex-order-1" })
  await call(api("/acquire2/getOrderPayer"), { merchantOrderNo: "ex-order-1" })
  const refund = (refundMerchantOrderNo: string, amount: number) => ({
    refundMerchantOrderNo,
    originMerchantOrderNo: "ex-order-1",
    amount: aed(amount),
    reason: "Returned an item",
  })
  await call(api("/acquire2/refund/placeOrder"), refund("ex-refund-1", 20.5))
  await call(api("/acquire2/refund/getOrder"), { refundMerchantOrderNo: "ex-refund-1" })
  await call(box("completeRefund"), { refundMerchantOrderNo: "ex-refund-1" })
  await call(box("settleRefund"), { refundMerchantOrderNo: "ex-refund-1" })
  await call(api("/acquire2/refund/placeOrder"), refund("ex-refund-2", 10))
  await call(box("failRefund"), { refundMerchantOrderNo: "ex-refund-2", failDes: "the card account is closed" })
  await call(box("settleOrder"), { merchantOrderNo: "ex-order-1" })
  await call(api("/acquire2/placeOrder"), { ...order, merchantOrderNo: "ex-order-2", subject: "Tea" })
  await call(box("payOrder"), { merchantOrderNo: "ex-order-2" })
  await call(api("/acquire2/revokeOrder"), { merchantOrderNo: "ex-order-2" })
  await call(api("/acquire2/placeOrder"), { ...order, merchantOrderNo: "ex-order-3", subject: "Cups" })
  await call(api("/acquire2/cancelOrder"), { merchantOrderNo: "ex-order-3" })
  await call(api("/acquire2/placeOrder"), { ...order, merchantOrderNo: "ex-order-4", subject: "Filters" })
  await call(box("failPayment"), { merchantOrderNo: "ex-order-4", failDes: "the card was declined" })

  // Transfers: to a wallet, to a bank account, to a card; payout helpers; deposits.
  await call(api("/transfer/placeTransferOrder"), {
    merchantOrderNo: "ex-wallet-1",
    beneficiaryIdentityType: "PHONE_NO",
    beneficiaryIdentity: sha256Hex("971500000001"),
    amount: aed(10),
    memo: "Salary advance",
  })
  await call(api("/transfer/getTransferOrder"), { merchantOrderNo: "ex-wallet-1" })
  await call(api("/transfer/getFundoutAbilityList"))
  await call(api("/transfer/calculateFundout"), {
    networkCode: "LOCAL",
    fundoutCurrencyCode: "AED",
    orderAmount: aed(500),
  })
  const bankFields = {
    holderName: client.encryptField("Amal Saeed"),
    iban: client.encryptField("AE070331234567890123456"),
  }
  await call(api("/transfer/getIbanHolderName"), bankFields)
  const bank = (merchantOrderNo: string) => ({ merchantOrderNo, ...bankFields, amount: aed(500), memo: "Invoice 7" })
  await call(api("/transfer/placeTransferToBankOrder"), bank("ex-bank-1"))
  await call(api("/transfer/getTransferToBankOrder"), { merchantOrderNo: "ex-bank-1" })
  await call(box("completeBankTransfer"), { merchantOrderNo: "ex-bank-1", bankReference: "FT-1" })
  await call(api("/transfer/placeTransferToBankOrder"), bank("ex-bank-2"))
  await call(box("failBankTransfer"), { merchantOrderNo: "ex-bank-2", failDes: "the account is closed" })
  const card = (merchantOrderNo: string) => ({
    accountHolderType: "INDIVIDUAL",
    merchantOrderNo,
    firstName: client.encryptField("Amal"),
    lastName: client.encryptField("Saeed"),
    cardNumber: client.encryptField("4111111111111111"),
    expiryYear: client.encryptField(String(new Date().getUTCFullYear() + 1)),
    expiryMonth: client.encryptField("06"),
    amount: aed(200),
    memo: "Refund of deposit",
  })
  await call(api("/transfer/placeTransferToBankCard"), card("ex-card-1"))
  await call(api("/transfer/getTransferToBankCard"), { merchantOrderNo: "ex-card-1" })
  await call(box("completeBankCardTransfer"), { merchantOrderNo: "ex-card-1", bankReference: "CP-1" })
  await call(api("/transfer/placeTransferToBankCard"), card("ex-card-2"))
  await call(box("failBankCardTransfer"), { merchantOrderNo: "ex-card-2", failDes: "the card is blocked" })
  await call(api("/transfer/placeTransferToBankCard"), card("ex-card-3"))
  await call(box("declineBankCardTransfer"), { merchantOrderNo: "ex-card-3", failDes: "do not honour" })
  await call(box("returnBankCardPayout"), { merchantOrderNo: "ex-card-3" })
  const deposit = await call<{ vamDepositOrder: { orderNo: string } }>(box("postDeposit"), {
    amount: aed(750.25),
    status: "PENDING",
  })
  await call(box("settleDeposit"), { orderNo: deposit.vamDepositOrder.orderNo, status: "SUCCESS" })
  await call(box("startMemberDirectoryOutage"))
  await call(box("endMemberDirectoryOutage"))

  // Refusals, each with a code its operation lists.
  await refuse(api("/acquire2/getOrder"), { merchantOrderNo: "ex-order-none" })
  await refuse(api("/acquire2/cancelOrder"), { merchantOrderNo: "ex-order-1" })
  await refuse(api("/acquire2/refund/placeOrder"), refund("ex-refund-3", 1000))
  await refuse(api("/acquire2/placeOrder"), { ...order, merchantOrderNo: "ex-order-5", paySceneCode: "BARTER" })
  await refuse(api("/transfer/calculateFundout"), {
    networkCode: "SWIFT",
    fundoutCurrencyCode: "JPY",
    orderAmount: aed(500),
  })
  await refuse(api("/transfer/getIbanHolderName"), {
    holderName: client.encryptField("Amal Saeed"),
    iban: client.encryptField("AE070331234567890123457"),
  })

  // The clock last: it moves this merchant's time for good (a reset is refused once it moved).
  await call(box("getClock"))
  await call(box("resetClock"))
  await call(box("advanceClock"), { minutes: 30 })
  return { examples, refusals }
}
