/**
 * The bank transfer order, with the wire names of `transferToBankOrder` but
 * for money, named in fils (`amountFils`; `payerFeeFils` is
 * paymentInfo.payerFeeAmount). Every order placed since it was recorded
 * carries its expected arrival (`expectedArrivalTime`); a SUCCESS carries
 * the bank's reference and the time the money arrived, a FAILURE its reason.
 */
import type { Timestamp } from "@mizan/kernel"
import type { BankTransferPlaced } from "./events.ts"

type PlacedFields = Omit<BankTransferPlaced, "_tag">

export type BankTransferOrder =
  | (PlacedFields & { readonly status: "CREATED" })
  | (PlacedFields & { readonly status: "SUCCESS"; readonly bankReference: string; readonly arrivalTime: Timestamp })
  | (PlacedFields & { readonly status: "FAILURE"; readonly failDes: string })

export type State = { readonly status: "ABSENT" } | BankTransferOrder

export const initialState: State = { status: "ABSENT" }

/** The order's product: the service's internal classification. */
export const bankTransferProduct = "TRANSFER_TO_BANK"
