/**
 * What the gateway reads off an order to answer the merchant, and what it
 * passes on to the refund order a reservation stands for.
 */
import { type Fils, withoutUndefined, zeroFils } from "@mizan/kernel"
import type { RecordedSharingParam } from "./events.ts"
import type { Order, RefundReservation } from "./state.ts"
import { paymentOf } from "./state.ts"

export interface SharingInfo extends RecordedSharingParam {
  readonly sharingSettledAmountFils: Fils
  readonly sharingSettledFeeAmountFils: Fils
}

/** acquireOrder.sharingInfoList: each item of the request with what it received (zero until paid). */
export const sharingInfoList = (order: Order): ReadonlyArray<SharingInfo> => {
  const split = paymentOf(order)?.settlement.sharing ?? []
  return (order.request.sharingParamList ?? []).map((item) => {
    const settled = split.find((s) => s.sharingIdentitySeqId === item.sharingIdentitySeqId)
    return {
      ...item,
      sharingSettledAmountFils: settled?.sharingSettledAmountFils ?? zeroFils,
      sharingSettledFeeAmountFils: settled?.sharingSettledFeeAmountFils ?? zeroFils,
    }
  })
}

/**
 * The details of the refund order a reservation stands for: the `details` of
 * @mizan/refund's CreateRefund command. Built here, from the one place that
 * knows both the order and the allocation, so the refund order records
 * exactly what was reserved.
 */
export const refundDetails = (order: Order, reservation: RefundReservation) => {
  const { refundMerchantOrderNo, amountFils, refundSharingAmount, sharingParamList, ...notes } = reservation.request
  const items = order.request.sharingParamList ?? []
  return {
    cause: reservation.cause,
    originMerchantOrderNo: order.request.merchantOrderNo,
    originOrderNo: order.orderNo,
    refundMerchantOrderNo,
    amountFils,
    payeeRefundFils: reservation.allocation.payeeFils,
    feeRefundedFils: reservation.allocation.feeFils,
    sharingInfoList: reservation.allocation.sharing.map((part) => {
      const listed = sharingParamList?.find((m) => m.sharingIdentitySeqId === part.sharingIdentitySeqId)
      const original = items.find((s) => s.sharingIdentitySeqId === part.sharingIdentitySeqId)
      return {
        sharingIdentitySeqId: part.sharingIdentitySeqId,
        sharingMemo: listed?.sharingMemo ?? original?.sharingMemo ?? "",
        sharingAmountFils: listed?.sharingAmountFils ?? part.amountFils,
        sharingSettledAmountFils: part.amountFils,
        ...withoutUndefined({ sharingMid: original?.sharingMid }),
      }
    }),
    ...notes,
  }
}
