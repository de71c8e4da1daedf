/**
 * The bank card transfer order, with the wire names of
 * `transferBankCardOrder` (partnerId is merchantId). A failed payout
 * (FAILURE or BANK_FAIL) gains refundedTime when its amount is returned.
 */
import type { Timestamp } from "@mizan/kernel"
import type { BankCardTransferPlaced } from "./events.ts"

type PlacedFields = Omit<BankCardTransferPlaced, "_tag">

export type BankCardTransferOrder =
  | (PlacedFields & { readonly status: "CREATED" })
  | (PlacedFields & { readonly status: "SUCCESS"; readonly bankReference: string })
  | (PlacedFields & {
      readonly status: "FAILURE" | "BANK_FAIL"
      readonly failDes: string
      readonly refundedTime?: Timestamp
    })

export type State = { readonly status: "ABSENT" } | BankCardTransferOrder

export const initialState: State = { status: "ABSENT" }

/** The product a merchant must have enabled (62026), and the order's `product`. */
export const bankCardTransferProduct = "TRANSFER_TO_BANK_CARD"
