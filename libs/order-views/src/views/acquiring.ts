/**
 * Domain state to the wire objects of the acquiring API (`acquireOrder`,
 * `payer`, `refundOrder`, `refundSummary`), as the protocol's response
 * schemas hold them (amounts in fils). The same shapes go into
 * notifications, since a notification carries the order as the query
 * operation returns it.
 */

import { AcquiringOrder, sharingInfoList } from "@mizan/acquiring"
import { withoutUndefined } from "@mizan/kernel"
import type { ResponseBodyOf } from "@mizan/protocol"
import type { RefundOrder } from "@mizan/refund"
import { definedOnly } from "./defined.ts"

export type WireAcquireOrder = ResponseBodyOf<"/acquire2/getOrder">["acquireOrder"]
export type WireRefundOrder = ResponseBodyOf<"/acquire2/refund/placeOrder">["refundOrder"]
export type WireRefundSummary = ResponseBodyOf<"/acquire2/refund/placeOrder">["refundSummary"]

/** The spec's `product`: "internal classification" of the payment scene. */
export const acquiringProduct = "MERCHANT_ACQUIRING"

export const toWireAcquireOrder = (order: AcquiringOrder.Order): WireAcquireOrder => {
  const request = order.request
  const payment = order.status === "CREATED" ? undefined : order.payment
  const failure = order.status === "FAILURE" ? order.failure : undefined
  return definedOnly<WireAcquireOrder>({
    requestTime: order.requestTime,
    merchantOrderNo: request.merchantOrderNo,
    orderNo: order.orderNo,
    status: order.status,
    paymentInfo:
      payment &&
      withoutUndefined({
        paidAmount: payment.paidAmountFils,
        paidTime: payment.paidTime,
        payerMid: payment.payer.payerMid,
        payerFeeAmount: payment.payerFeeFils,
        payeeFeeAmount: payment.settlement.payeeFeeAmountFils,
        payChannel: payment.payChannel,
        settlementAmount: payment.settlement.settlementAmountFils,
        // "Returned only for scene DIRECTPAY": the domain keeps it only then.
        cardInfo: payment.cardInfo,
      }),
    product: acquiringProduct,
    totalAmount: request.totalAmountFils,
    payeeMid: order.payeeMid,
    expiredTime: order.expiredTime,
    notifyUrl: request.notifyUrl,
    sharingInfoList:
      request.sharingParamList === undefined
        ? undefined
        : sharingInfoList(order).map((item) =>
            withoutUndefined({
              sharingIdentitySeqId: item.sharingIdentitySeqId,
              // "Member id returned when the identity matches an existing member": none matched, none is named.
              sharingMid: item.sharingMid ?? "",
              sharingMemo: item.sharingMemo,
              sharingAmount: item.sharingAmountFils,
              sharingSettledFeeAmount: item.sharingSettledFeeAmountFils,
              sharingSettledAmount: item.sharingSettledAmountFils,
              withholdAndRemitFee: item.withholdAndRemitFee,
            }),
          ),
    promotionInfoList: request.promotionInfoList,
    subject: request.subject,
    accessoryContent: request.accessoryContent,
    paySceneCode: request.paySceneCode,
    paySceneParams: order.paySceneParams,
    deviceId: request.deviceId,
    secondaryMerchantId: request.secondaryMerchantId,
    failCode: failure?.failCode,
    failDes: failure?.failDes,
    revoked: order.revoked ? "true" : "false",
    reserved: request.reserved,
  })
}

export const toWireRefundSummary = (order: AcquiringOrder.Order): WireRefundSummary => {
  const summary = AcquiringOrder.refundSummary(order)
  return { acquireAmount: summary.acquireAmountFils, remainRefundAmount: summary.remainRefundAmountFils }
}

export const toWireRefundOrder = (refund: RefundOrder.Order): WireRefundOrder => {
  const details = refund.details
  const failure = refund.status === "FAILURE" ? refund.failure : undefined
  return definedOnly<WireRefundOrder>({
    refundMerchantOrderNo: details.refundMerchantOrderNo,
    orderNo: refund.orderNo,
    originMerchantOrderNo: details.originMerchantOrderNo,
    status: refund.status,
    amount: details.amountFils,
    feeRefunded: details.feeRefundedFils,
    sharingInfoList:
      details.sharingInfoList.length === 0
        ? undefined
        : details.sharingInfoList.map((item) => ({
            sharingIdentitySeqId: item.sharingIdentitySeqId,
            sharingMid: item.sharingMid ?? "",
            sharingMemo: item.sharingMemo,
            sharingAmount: item.sharingAmountFils,
            sharingSettledAmount: item.sharingSettledAmountFils,
          })),
    notifyUrl: details.notifyUrl,
    reason: details.reason,
    secondaryMerchantId: details.secondaryMerchantId,
    deviceId: details.deviceId,
    failCode: failure?.failCode,
    failDes: failure?.failDes,
    // "Documented as the service's identification number of the order."
    reserved: refund.orderNo,
  })
}
