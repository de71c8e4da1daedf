/**
 * What each field means, for the description's readers (and the
 * documentation a generated client carries). Fields are named alike across
 * operations (`merchantOrderNo` is the merchant's number wherever it
 * appears), so meanings are kept by field name; the form (length, enum,
 * money) is the compiled schema's. A field missing here fails the OpenAPI
 * test, which requires a description on every field.
 */
import { BankTransfer } from "@mizan/transfer"
import { type Json, mapSchema } from "./tree.ts"

const encrypted =
  "Sent encrypted with the service's public key (see Encrypted fields in the description's introduction)"
const digestAnswered = "answered as the 64-character lower-case hex SHA-256 of the clear value"
const orderNumber = "The service's number of the order (`orderNo`), as answered when it was created"

/** What a bank transfer takes for a field the merchant leaves out (the field's meaning is shared with the payout helpers). */
const bankTransferDefault = (field: keyof typeof BankTransfer.bankTransferDefaults): string =>
  ` A bank transfer that leaves it out takes ${BankTransfer.bankTransferDefaults[field]}.`

export const fieldDescriptions: Readonly<Record<string, string>> = {
  // The envelope and head.
  requestTime: "When the request (or order) was made: milliseconds since the epoch.",
  partnerId: "The merchant's id (Partner-Id). In a request it must equal the Partner-Id header.",
  bizContent: "The operation's parameters.",
  head: "The outcome: applyStatus, code and msg.",
  body: 'The answer\'s content: present only when head.applyStatus is SUCCESS and head.code is "0".',
  applyStatus:
    "SUCCESS when the request was handled, FAIL when refused, ERROR when the request's signature did not verify.",
  code: 'The outcome\'s code: "0" for success, otherwise a code of the catalogue (see the values).',
  msg: "The code's message name (the text before the first `:`), then a detail that names the field.",
  traceCode: "Quote it to the service's operator: it names this request in the service's logs.",
  success:
    'Whether the request succeeded: true exactly when applyStatus is SUCCESS and code is "0". Answered where PayBy\'s documentation shows it (create order).',
  // Orders and their numbers.
  merchantOrderNo:
    "The merchant's own number of the order (or refund, or transfer): unique per merchant, and the key of idempotency.",
  orderNo: `${orderNumber}.`,
  refundMerchantOrderNo: "The merchant's own number of the refund: unique per merchant.",
  originMerchantOrderNo: "The merchant's number of the order refunded.",
  originOrderNo: "The service's number of the order refunded.",
  subject: "What is paid for, as the payer sees it on the pay page.",
  totalAmount: "The order's total.",
  amount: "The amount.",
  currency: "The currency: AED.",
  expiredTime: "When an unpaid order expires: at most 48 hours after requestTime. Absent: 2 hours after requestTime.",
  payeeMid: "Who is paid: the merchant itself (another payee is not supported).",
  paySceneCode:
    "How the payer pays: the scene decides the interaction (pay page link, deep link, 3-D Secure form, ...).",
  paySceneParams: "The scene's parameters.",
  redirectUrl: "Where the pay page sends the payer back when the payment is over (http or https).",
  customerId: "The merchant's id of its customer.",
  changePayer: '"true" lets another payer than the one the order names pay it.',
  oneTimePayment: '"true" closes the order for good after one failed payment attempt.',
  email: "The payer's e-mail address.",
  eid: `The payer's national identity. ${encrypted}, or its SHA-256 hex.`,
  sharingParamList: "How the payment is split between members (at most one item may withhold the fee).",
  sharingIdentitySeqId: "The item's number in the list: 1, 2, 3, ...",
  sharingIdentityType: "What sharingIdentity is.",
  sharingIdentity: `Who receives the share. ${encrypted}, or its SHA-256 hex.`,
  sharingMemo: "A note on the share.",
  sharingAmount: "The share's amount.",
  withholdAndRemitFee: "Whether the service's fee is taken from this share.",
  sharingInfoList: "The shares as the service settles them.",
  sharingMid: "The member id the sharing identity matches in the member directory (empty when none matches).",
  sharingSettledAmount: "What the member receives, after any fee.",
  sharingSettledFeeAmount: "The fee taken from this share.",
  promotionInfoList: "Rewards applied to the order.",
  appliedRewardId: "The reward's id.",
  settleFlag: "Whether the reward is settled with the order.",
  notifyUrl:
    "Where the service posts notifications of this order's status changes (an absolute public http or https URL).",
  secondaryMerchantId: "The sub-merchant the order is for.",
  deviceId: "The merchant's device that made the request (a refund's must be registered).",
  accessoryContent: "Details of the order: amounts, goods, terminal.",
  amountDetail: "How the total breaks down.",
  discountableAmount: "The part of the total a discount may apply to.",
  vatAmount: "The VAT included in the total.",
  tipAmount: "The tip included in the total.",
  goodsDetail: "What is sold.",
  goodsId: "The merchant's id of the goods.",
  goodsName: "The goods' name.",
  goodsCategory: "The goods' category.",
  categoriesTree: "The goods' categories, from the broadest.",
  price: "The unit price.",
  quantity: "How many (a decimal, at most 2 places).",
  showUrl: "A page showing the goods.",
  terminalDetail: "The terminal the order was made on.",
  operatorId: "Who operated the terminal.",
  storeId: "The store's id.",
  storeName: "The store's name.",
  terminalId: "The terminal's id.",
  merchantName: "The merchant's name.",
  reserved:
    "The merchant's notes, kept as sent and answered on its order; a refund order answers here the service's number of the refund (its orderNo), as the interface documents it, and the refund request's own reserved only counts when the request is repeated.",
  status: "Where the order stands (see the values).",
  product: "The service's product for this kind of order.",
  revoked:
    '"true" once a paid order was revoked (its payment is refunded). An unpaid order revoked is closed (failCode ORDER_REVOKED) and stays "false".',
  failCode: "Why the order failed, as a code.",
  failDes: "Why the order failed, in words.",
  paymentInfo: "How the order was paid: present once it is.",
  paidAmount: "What the payer paid (below totalAmount when a discount applied).",
  paidTime:
    "When the payment succeeded; on a bank card transfer, when its amount and fee were deducted, which is when it was placed.",
  payerMid: "The payer's member id.",
  payerFeeAmount: "The fee the payer paid.",
  payeeFeeAmount: "The fee the merchant pays for this payment.",
  payChannel: "The channel the payer paid with.",
  settlementAmount:
    "What the payee receives: the paid amount less the sharing members' shares and the fee the payee bears.",
  cardInfo: "The card paid with: never its number.",
  brand: "The card's brand (VISA, MASTERCARD, ...).",
  cardId: "The card's id at the service.",
  cardType: "DC for a debit card, CC for a credit card.",
  expMonth: "The card's expiry month, two digits.",
  expYear: "The card's expiry year, two digits.",
  last4: "The card number's last 4 digits.",
  interactionParams: "What the payer needs to pay a CREATED order, by scene.",
  tokenUrl: "The hosted pay page to send the payer to (every scene with a link but EWALLET).",
  deepLink: "EWALLET only: a link that opens the checkout of the wallet the payer chose on this order.",
  threeDSecureDom: "An HTML form to insert in the merchant's page: it takes the payer through 3-D Secure.",
  acquireOrder: "The payment order.",
  refundOrder: "The refund order.",
  transferOrder: "The wallet transfer order.",
  transferToBankOrder: "The bank transfer order.",
  transferToBankCard: "The bank card transfer order.",
  transferBankCardOrder: "The bank card transfer order.",
  vamDepositOrder: "The virtual account deposit.",
  payer: "Who paid the order.",
  mobileNumberMask: "The payer's mobile number, masked.",
  ipAddress: "The address the payer paid from.",
  // Refunds.
  refundSharingAmount: "Whether the shares are refunded in proportion to the refund.",
  operatorName: "Who asked for the refund.",
  reason: "Why the refund is made.",
  feeRefunded: "The part of the merchant's fee given back with the refund.",
  refundSummary: "What is left to refund on the order.",
  acquireAmount: "What the order was paid.",
  remainRefundAmount: "What may still be refunded: paid, less refunds made and pending.",
  refundedTime: "When the payout was returned to the merchant.",
  // Transfers.
  beneficiaryIdentityType: "What beneficiaryIdentity is.",
  beneficiaryIdentity: `Who receives the transfer. ${encrypted}, or its SHA-256 hex; ${digestAnswered}.`,
  beneficiaryFullName: `The beneficiary's full name, checked against the wallet. ${encrypted}, or its SHA-256 hex; ${digestAnswered}.`,
  memo: "A note the beneficiary sees.",
  arrivalTime:
    "When the money arrives: while a transfer is CREATED, the service's estimate (for a bank transfer, its placement plus its network's usual delay); once SUCCESS, when it arrived.",
  fundoutAbilityList: "The payout networks this merchant may use.",
  countryCode: `The beneficiary bank's country.${bankTransferDefault("countryCode")}`,
  fundoutCurrencyCode: `The currency the beneficiary receives.${bankTransferDefault("fundoutCurrencyCode")}`,
  networkCode: `The payout network (LOCAL, SWIFT, ...).${bankTransferDefault("networkCode")}`,
  name: "The network's name.",
  beneficiaryType: `How the beneficiary is named (IBAN, ...).${bankTransferDefault("beneficiaryType")}`,
  orderAmount: "What the merchant sends, in AED.",
  fundoutAmount: "What the beneficiary receives, in fundoutCurrencyCode.",
  feeAmount: "The service's fee.",
  rate: "The exchange rate applied: fundoutAmount per AED.",
  holderName: `The account holder's name. ${encrypted}; ${digestAnswered}.`,
  iban: `The beneficiary's IBAN. ${encrypted}; ${digestAnswered}.`,
  swiftCode: "The beneficiary bank's SWIFT (BIC) code.",
  beneficiaryAddress: `The beneficiary's address. ${encrypted}; ${digestAnswered}.`,
  accountNo: `The beneficiary's account number, where it is not an IBAN. ${encrypted}; ${digestAnswered}.`,
  bankName: "The beneficiary bank's name.",
  cityCode: "The beneficiary bank's city.",
  fedwireCode: "The beneficiary bank's Fedwire routing number (US).",
  branchName: "The beneficiary bank's branch.",
  intermediaryBank: "The intermediary bank's SWIFT code.",
  purposeCode: "The payment's purpose, as the network codes it.",
  ibanHolderName: "The holder name check's result.",
  holderNameMask: "The IBAN holder's name as the bank has it, masked.",
  nameMatchingLevel:
    'How closely the given name matches the bank\'s, word by word, as a number\'s text: "1" the same words in the same order, "2" the same words in another order, "3" a close match (some words as initials, or left out), "4" no match.',
  nameMatchingResult:
    'What to do: "TRUE" (levels 1 and 2) pay; "FALSE" do not pay as it stands: at level 3 show the masked name and ask, at level 4 do not pay.',
  bankReference: "The bank's reference of the transfer.",
  fundoutInfo: "How the payout was made.",
  payoutReturned: "Whether the bank returned the payout.",
  accountHolderType: "INDIVIDUAL (firstName and lastName required) or CORPORATE (companyName required).",
  firstName: `The card holder's first name. ${encrypted}; ${digestAnswered}.`,
  lastName: `The card holder's last name. ${encrypted}; ${digestAnswered}.`,
  middleName: `The card holder's middle name. ${encrypted}; ${digestAnswered}.`,
  companyName: `The card holder company's name. ${encrypted}; ${digestAnswered}.`,
  cardNumber: `The card's number, 12 to 19 digits. ${encrypted}; ${digestAnswered}.`,
  expiryMonth: `The card's expiry month (MM). ${encrypted}; answered as sent, in clear, as the interface's order carries it.`,
  expiryYear: `The card's expiry year (YYYY). ${encrypted}; answered as sent, in clear, as the interface's order carries it.`,
  payerFeeMemberId: "Who paid the fee.",
  createdTime: "When the order was created.",
  // Deposits.
  transactionTime: "When the deposit was made.",
  referenceNo: "The bank's reference of the deposit.",
  remitterInfo: `Who sent the deposit, as the bank reports it; ${digestAnswered}.`,
  senderBankCode: "The sending bank's code.",
  depositDetails: "Details the sending bank gave.",
  collectIBAN: `The collection account (IBAN) the deposit arrived in, as the bank reports it; ${digestAnswered}.`,
  // Notifications.
  notify_id: "The notification's id: the same on every attempt, so a merchant can drop a repeated delivery.",
  notify_timestamp: "When this attempt was sent: milliseconds since the epoch.",
  notify_time: "When this attempt was sent, as yyyyMMddHHmmss in UTC (deprecated: read notify_timestamp).",
  _input_charset: "The body's character set: always UTF-8.",
  response: "SUCCESS acknowledges the notification.",
  // Sandbox helpers.
  minutes: "How many minutes to move the merchant's sandbox clock forward.",
  now: "The merchant's sandbox time.",
  offsetMinutes: "How far the merchant's sandbox clock is ahead of real time.",
  memberDirectoryAvailable: "Whether the sandbox's member directory answers.",
}

/** Every property of the schema with its meaning, where it has none yet; a reference keeps its target and gains a sibling description. */
export const describedFields = (schema: Json): Json =>
  mapSchema(schema, (node) => {
    if (node.properties === undefined) return node
    const properties = Object.fromEntries(
      Object.entries(node.properties as Record<string, Json>).map(([name, property]) => {
        const description = fieldDescriptions[name]
        return [
          name,
          property.description !== undefined || description === undefined ? property : { ...property, description },
        ]
      }),
    )
    return { ...node, properties }
  })
