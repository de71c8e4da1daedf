/**
 * What each operation does, in a sentence or two a merchant's developer
 * reads in the description (and in a generated client's documentation).
 * Keyed by the full path; the OpenAPI test requires one for every
 * operation the gateway serves.
 */
export const operationDescriptions: Readonly<Record<string, string>> = {
  "/sgs/api/acquire2/placeOrder":
    "Creates a payment order. The answer carries the order (status CREATED) and, by scene, what the payer needs: a pay page link (tokenUrl), a deep link or a 3-D Secure form. Idempotent: the same merchantOrderNo with the same parameters answers the order as it stands; with other parameters, 62016 (or 62001/62003/62002 by the order's status).",
  "/sgs/api/acquire2/getOrder":
    "Answers a payment order as it stands, named by exactly one of merchantOrderNo or orderNo. An unpaid order past its expiredTime is answered closed (FAILURE, ORDER_EXPIRED).",
  "/sgs/api/acquire2/getOrderPayer":
    "Answers who paid an order: the payer's member id, masked mobile number, device and address.",
  "/sgs/api/acquire2/refund/placeOrder":
    "Refunds part or all of a paid order. The refund is reserved on the order first, so refunds never exceed what was paid, under any interleaving. Idempotent by the refund's number, sent as refundMerchantOrderNo or (as the spec's sample sends it) merchantOrderNo: 62017 with other parameters, naming the field the number came in.",
  "/sgs/api/acquire2/refund/getOrder":
    "Answers a refund order, named by exactly one of refundMerchantOrderNo or orderNo, and what is left to refund on its order.",
  "/sgs/api/acquire2/revokeOrder":
    "Revokes an order: an unpaid one is closed, a paid one is refunded in full. Refused once the order has a refund (62041) or is past the refund window (62046).",
  "/sgs/api/acquire2/cancelOrder":
    "Cancels an unpaid order, so that it can no longer be paid. A paid order cannot be cancelled (62001): refund or revoke it.",
  "/sgs/api/transfer/placeTransferOrder":
    "Transfers money from the merchant's balance to a wallet, named by phone number or member id. Idempotent by merchantOrderNo.",
  "/sgs/api/transfer/getTransferOrder": "Answers a wallet transfer order, named by its merchantOrderNo.",
  "/sgs/api/transfer/getFundoutAbilityList":
    "Lists the payout networks (country, currency, network, beneficiary type) this merchant may send bank transfers through. Takes no parameters.",
  "/sgs/api/transfer/calculateFundout":
    "Quotes a payout: what the beneficiary receives in the network's currency for an amount in AED, at which rate and fee.",
  "/sgs/api/transfer/getIbanHolderName":
    "Checks an IBAN's holder name before a bank transfer: whether the given name matches the bank's, and the bank's name masked.",
  "/sgs/api/transfer/placeTransferToBankOrder":
    "Transfers money from the merchant's balance to a bank account (IBAN) through a payout network. Idempotent by merchantOrderNo.",
  "/sgs/api/transfer/getTransferToBankOrder": "Answers a bank transfer order, named by its merchantOrderNo.",
  "/sgs/api/transfer/placeTransferToBankCard":
    "Pays out to a bank card. The card fields travel encrypted; the service keeps only their digests and the last 4 digits. Idempotent by merchantOrderNo.",
  "/sgs/api/transfer/getTransferToBankCard": "Answers a bank card transfer order, named by its merchantOrderNo.",
  "/sgs/sandbox/payOrder":
    "Sandbox: the payer pays an order (all of it, or paidAmount), as the pay page's Pay button does. The merchant is notified as in production.",
  "/sgs/sandbox/failPayment":
    "Sandbox: a payment attempt fails. The order stays open for another attempt, unless it is a one-time payment.",
  "/sgs/sandbox/settleOrder": "Sandbox: the channel settles a paid order (SETTLED).",
  "/sgs/sandbox/settleRefund": "Sandbox: the channel settles a refund (REFUNDED_SETTLED).",
  "/sgs/sandbox/completeRefund":
    "Sandbox: a refund succeeds (SUCCESS). A CREATED refund is settled on the way (REFUNDED_SETTLED, then SUCCESS), and each status is notified.",
  "/sgs/sandbox/failRefund": "Sandbox: a refund fails (FAILURE): its reservation on the order is released.",
  "/sgs/sandbox/completeBankTransfer":
    "Sandbox: the bank completes a bank transfer (SUCCESS, with the bank's reference).",
  "/sgs/sandbox/failBankTransfer": "Sandbox: the bank fails a bank transfer (FAILURE, with failDes).",
  "/sgs/sandbox/completeBankCardTransfer": "Sandbox: the card network completes a bank card transfer (SUCCESS).",
  "/sgs/sandbox/failBankCardTransfer": "Sandbox: a bank card transfer fails (FAILURE), its payout optionally returned.",
  "/sgs/sandbox/declineBankCardTransfer": "Sandbox: the card's bank declines a bank card transfer (BANK_FAIL).",
  "/sgs/sandbox/returnBankCardPayout": "Sandbox: the payout of a failed bank card transfer comes back to the merchant.",
  "/sgs/sandbox/postDeposit":
    "Sandbox: a deposit arrives in the merchant's virtual account (PENDING or its final status).",
  "/sgs/sandbox/settleDeposit": "Sandbox: a pending deposit ends (SUCCESS or FAILED).",
  "/sgs/sandbox/startMemberDirectoryOutage":
    "Sandbox: the member directory stops answering, so wallet transfers placed meanwhile stay CREATED until retried.",
  "/sgs/sandbox/endMemberDirectoryOutage": "Sandbox: the member directory answers again.",
  "/sgs/sandbox/advanceClock":
    "Sandbox: moves this merchant's clock forward by some minutes: expiries and refund windows come due at once, and each failing notification's next retry (one per advance).",
  "/sgs/sandbox/getClock": "Sandbox: answers this merchant's time and how far it is ahead of real time.",
  "/sgs/sandbox/resetClock":
    "Sandbox: answers this merchant's clock while it has not moved, and refuses a moved one (400): a test clock never goes back, or recorded history would run backwards.",
}
