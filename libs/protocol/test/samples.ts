/**
 * Valid bodies for every operation, built from the spec's tables: requests in
 * the form a merchant client sends (wire form), responses in the form the
 * service sends. Encrypted fields are encrypted with a test service key.
 */
import { createHash } from "node:crypto"
import { encryptField, generateKeyPair, type OperationPath } from "../src/index.ts"

export const service = generateKeyPair()
export const encrypted = (clear: string): string => encryptField(clear, service.publicKey)
export const digest = (clear: string): string => createHash("sha256").update(clear).digest("hex")

/** Drops keys whose value is undefined, as JSON does. */
export const asJson = <T>(value: T): T => JSON.parse(JSON.stringify(value))

const aed = (amount: number) => ({ amount, currency: "AED" })
const requestTime = 1_700_000_000_000

export const requestSamples = (): Record<OperationPath, unknown> => ({
  "/acquire2/placeOrder": {
    merchantOrderNo: "M1700000000001",
    subject: "Coffee beans",
    totalAmount: aed(100.5),
    expiredTime: requestTime + 2 * 3_600_000,
    payeeMid: "200000000002",
    paySceneCode: "PAYPAGE",
    paySceneParams: {
      redirectUrl: "https://merchant.example/paid",
      customerId: "C-42",
      changePayer: "false",
      oneTimePayment: "true",
      email: "payer@example.com",
      eid: digest("784-1990-1234567-1"),
    },
    sharingParamList: [
      {
        sharingIdentitySeqId: 1,
        sharingIdentityType: "PHONE_NO",
        sharingIdentity: encrypted("+971500000001"),
        sharingMemo: "courier",
        sharingAmount: aed(10),
        withholdAndRemitFee: true,
      },
      {
        sharingIdentitySeqId: 2,
        sharingIdentityType: "MEMBER_ID",
        sharingIdentity: digest("200000000003"),
        sharingMemo: "roaster",
        sharingAmount: aed(20.25),
      },
    ],
    promotionInfoList: [{ appliedRewardId: "R-1", settleFlag: "YES" }],
    notifyUrl: "https://merchant.example/notify",
    secondaryMerchantId: "200000000009",
    deviceId: "POS-7",
    accessoryContent: {
      amountDetail: { amount: aed(110), discountableAmount: aed(9.5), vatAmount: aed(5), tipAmount: aed(0) },
      goodsDetail: { goodsId: "G1", goodsName: "Beans", price: aed(50.25), quantity: 2 },
      terminalDetail: { operatorId: "op1", storeId: "s1", terminalId: "t1", merchantName: "Cafe", storeName: "Marina" },
    },
    reserved: "order note",
  },
  "/acquire2/getOrder": { merchantOrderNo: "M1700000000001" },
  "/acquire2/getOrderPayer": { orderNo: "131700000000000001" },
  "/acquire2/refund/placeOrder": {
    refundMerchantOrderNo: "R1700000000001",
    originMerchantOrderNo: "M1700000000001",
    amount: aed(10.1),
    refundSharingAmount: true,
    sharingParamList: [
      {
        sharingIdentitySeqId: 1,
        sharingIdentityType: "ALTWALLET_ID",
        sharingIdentity: encrypted("wallet-77"),
        sharingMemo: "courier share",
        sharingAmount: aed(1),
      },
    ],
    notifyUrl: "https://merchant.example/refunds",
    operatorName: "Amal",
    reason: "customer request",
    deviceId: "POS-7",
    secondaryMerchantId: "200000000009",
    reserved: "refund note",
  },
  "/acquire2/refund/getOrder": { refundMerchantOrderNo: "R1700000000001" },
  "/acquire2/revokeOrder": { merchantOrderNo: "M1700000000001" },
  "/acquire2/cancelOrder": { orderNo: "131700000000000001" },
  "/transfer/placeTransferOrder": {
    merchantOrderNo: "T1700000000001",
    beneficiaryIdentityType: "PHONE_NO",
    beneficiaryIdentity: encrypted("+971500000001"),
    beneficiaryFullName: digest("Amal Saeed"),
    amount: aed(250),
    memo: "Bonus",
    notifyUrl: "https://merchant.example/transfers",
  },
  "/transfer/getTransferOrder": { merchantOrderNo: "T1700000000001" },
  "/transfer/getFundoutAbilityList": undefined,
  "/transfer/calculateFundout": { networkCode: "SWIFT", fundoutCurrencyCode: "USD", orderAmount: aed(1000) },
  "/transfer/getIbanHolderName": {
    holderName: encrypted("Amal Saeed"),
    iban: encrypted("AE070331234567890123456"),
  },
  "/transfer/placeTransferToBankOrder": {
    merchantOrderNo: "B1700000000001",
    holderName: encrypted("Amal Saeed"),
    iban: encrypted("AE070331234567890123456"),
    swiftCode: "BBMEAEAD",
    beneficiaryAddress: encrypted("Sigma 1 Tower, Dubai"),
    amount: aed(1500.75),
    memo: "Invoice 17",
    notifyUrl: "https://merchant.example/bank",
    networkCode: "LOCAL",
    countryCode: "AE",
    fundoutCurrencyCode: "AED",
    beneficiaryType: "IBAN",
    purposeCode: "SAL",
  },
  "/transfer/getTransferToBankOrder": { merchantOrderNo: "B1700000000001" },
  "/transfer/placeTransferToBankCard": {
    accountHolderType: "INDIVIDUAL",
    merchantOrderNo: "C1700000000001",
    firstName: encrypted("Amal"),
    lastName: encrypted("Saeed"),
    amount: aed(75),
    memo: "Refund of deposit",
    notifyUrl: "https://merchant.example/cards",
    expiryYear: encrypted("2031"),
    expiryMonth: encrypted("09"),
    cardNumber: encrypted("4111111111111111"),
  },
  "/transfer/getTransferToBankCard": { merchantOrderNo: "C1700000000001" },
})

export const acquireOrderSample = {
  requestTime,
  merchantOrderNo: "M1700000000001",
  orderNo: "131700000000000001",
  status: "PAID_SUCCESS",
  paymentInfo: {
    paidAmount: aed(100.5),
    paidTime: requestTime + 60_000,
    payerMid: "200000000001",
    payerFeeAmount: aed(0),
    payeeFeeAmount: aed(2.01),
    payChannel: "BANKCARD",
    settlementAmount: aed(98.49),
    cardInfo: { brand: "VISA", last4: "1111", cardType: "CC", expMonth: "09", expYear: "31" },
  },
  product: "Basic Payment Gateway",
  totalAmount: aed(100.5),
  payeeMid: "200000000002",
  expiredTime: requestTime + 7_200_000,
  notifyUrl: "https://merchant.example/notify",
  sharingInfoList: [
    {
      sharingIdentitySeqId: 1,
      sharingMid: "200000000005",
      sharingMemo: "courier",
      sharingAmount: aed(10),
      sharingSettledFeeAmount: aed(2.01),
      sharingSettledAmount: aed(7.99),
      withholdAndRemitFee: true,
    },
  ],
  promotionInfoList: [{ appliedRewardId: "R-1", settleFlag: "NO" }],
  subject: "Coffee beans",
  accessoryContent: { amountDetail: {}, goodsDetail: { quantity: 2.5 }, terminalDetail: {} },
  paySceneCode: "PAYPAGE",
  paySceneParams: { redirectUrl: "https://merchant.example/paid", changePayer: "true", eid: digest("784") },
  deviceId: "POS-7",
  secondaryMerchantId: "200000000009",
  revoked: "false",
  reserved: "order note",
}

export const refundOrderSample = {
  refundMerchantOrderNo: "R1700000000001",
  orderNo: "141700000000000001",
  originMerchantOrderNo: "M1700000000001",
  status: "SUCCESS",
  amount: aed(10.1),
  feeRefunded: aed(0.2),
  sharingInfoList: [
    {
      sharingIdentitySeqId: 1,
      sharingMid: "200000000005",
      sharingMemo: "courier",
      sharingAmount: aed(1),
      sharingSettledAmount: aed(1),
    },
  ],
  notifyUrl: "https://merchant.example/refunds",
  reason: "customer request",
  reserved: "141700000000000001",
}

export const transferOrderSample = {
  requestTime,
  merchantOrderNo: "T1700000000001",
  orderNo: "151700000000000001",
  product: "Transfer",
  status: "SUCCESS",
  paymentInfo: { payerFeeAmount: aed(1), arrivalTime: requestTime + 1000 },
  amount: aed(250),
  beneficiaryIdentityType: "PHONE_NO",
  beneficiaryIdentity: digest("+971500000001"),
  beneficiaryFullName: digest("Amal Saeed"),
  memo: "Bonus",
  notifyUrl: "https://merchant.example/transfers",
}

export const transferToBankOrderSample = {
  requestTime,
  merchantOrderNo: "B1700000000001",
  orderNo: "161700000000000001",
  product: "Transfer To Bank",
  status: "SUCCESS",
  paymentInfo: { payerFeeAmount: aed(5), arrivalTime: requestTime + 86_400_000 },
  amount: aed(1500.75),
  holderName: digest("Amal Saeed"),
  iban: digest("AE070331234567890123456"),
  swiftCode: "BBMEAEAD",
  memo: "Invoice 17",
  notifyUrl: "https://merchant.example/bank",
  beneficiaryAddress: digest("Sigma 1 Tower, Dubai"),
  bankReference: "FT2400001",
  fundoutAmount: { amount: 408.65, currency: "USD" },
  rate: 0.272294,
  networkCode: "SWIFT",
  countryCode: "US",
  bankName: "Example Bank",
  fedwireCode: "026009593",
  intermediaryBank: "CHASUS33",
  branchName: "Main",
  beneficiaryType: "BBAN",
  purposeCode: "SAL",
  accountNo: digest("000123456789"),
  fundoutCurrencyCode: "USD",
}

export const transferBankCardOrderSample = {
  requestTime,
  merchantOrderNo: "C1700000000001",
  orderNo: "171700000000000001",
  product: "Transfer To Bank Card",
  status: "BANK_FAIL",
  amount: aed(75),
  accountHolderType: "INDIVIDUAL",
  firstName: digest("Amal"),
  lastName: digest("Saeed"),
  cardNumber: digest("4111111111111111"),
  expiryMonth: "09",
  expiryYear: "2031",
  memo: "Refund of deposit",
  notifyUrl: "https://merchant.example/cards",
  failDes: "declined by the issuing bank",
  bankReference: "BR-1",
  payerFeeAmount: aed(1.5),
  payerFeeMemberId: "200000000002",
  paidTime: requestTime + 1000,
  partnerId: "200000000002",
  createdTime: requestTime,
}

export const vamDepositOrderSample = {
  transactionTime: requestTime,
  orderNo: "181700000000000001",
  amount: aed(5000),
  status: "SUCCESS",
  referenceNo: "REF-9",
  remitterInfo: "ACME LLC",
  senderBankCode: "EBILAEAD",
  depositDetails: "top-up",
  collectIBAN: "AE460260001015333439101",
}

export const responseSamples: Record<OperationPath, unknown> = asJson({
  "/acquire2/placeOrder": {
    acquireOrder: { ...acquireOrderSample, status: "CREATED", paymentInfo: undefined },
    interactionParams: { tokenUrl: "https://pay.example/checkout/abc" },
  },
  "/acquire2/getOrder": { acquireOrder: acquireOrderSample },
  "/acquire2/getOrderPayer": {
    payer: { payerMid: "200000000001", mobileNumberMask: "+97150****001", deviceId: "fp-1", ipAddress: "203.0.113.9" },
  },
  "/acquire2/refund/placeOrder": {
    refundOrder: { ...refundOrderSample, status: "CREATED" },
    refundSummary: { acquireAmount: aed(100.5), remainRefundAmount: aed(90.4) },
  },
  "/acquire2/refund/getOrder": { refundOrder: refundOrderSample },
  "/acquire2/revokeOrder": { acquireOrder: { ...acquireOrderSample, status: "FAILURE", revoked: "true" } },
  "/acquire2/cancelOrder": {
    acquireOrder: { ...acquireOrderSample, status: "FAILURE", paymentInfo: undefined, failCode: "CANCELLED" },
  },
  "/transfer/placeTransferOrder": { transferOrder: { ...transferOrderSample, status: "CREATED" } },
  "/transfer/getTransferOrder": { transferOrder: transferOrderSample },
  "/transfer/getFundoutAbilityList": {
    fundoutAbilityList: [
      { countryCode: "UAE", fundoutCurrencyCode: "AED", networkCode: "LOCAL", name: "UAEFTS", beneficiaryType: "IBAN" },
      { countryCode: "US", networkCode: "SWIFT", name: "SWIFT", beneficiaryType: "BBAN" },
    ],
  },
  "/transfer/calculateFundout": {
    fundoutInfo: {
      orderAmount: aed(1000),
      fundoutAmount: { amount: 272.29, currency: "USD" },
      feeAmount: aed(25),
      networkCode: "SWIFT",
      rate: 0.272294,
    },
  },
  "/transfer/getIbanHolderName": {
    ibanHolderName: { holderNameMask: "A*** S****", nameMatchingLevel: "1", nameMatchingResult: "TRUE" },
  },
  "/transfer/placeTransferToBankOrder": { transferToBankOrder: { ...transferToBankOrderSample, status: "CREATED" } },
  "/transfer/getTransferToBankOrder": { transferToBankOrder: transferToBankOrderSample },
  "/transfer/placeTransferToBankCard": {
    transferToBankCard: { ...transferBankCardOrderSample, status: "CREATED", failDes: undefined },
  },
  "/transfer/getTransferToBankCard": { transferToBankCard: transferBankCardOrderSample },
})
