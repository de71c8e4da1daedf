/**
 * The wallet transfer order, with the wire names of `transferOrder` but for
 * money, named in fils (`amountFils` is `amount`, `payerFeeFils` is
 * paymentInfo.payerFeeAmount). A discriminated union on status: only a FAILURE carries
 * failCode and failDes.
 */
import type { WalletTransferPlaced } from "./events.ts"
import type { WalletFailCode } from "./failures.ts"

type PlacedFields = Omit<WalletTransferPlaced, "_tag">

export type WalletTransferOrder =
  | (PlacedFields & { readonly status: "CREATED" | "SUCCESS" })
  | (PlacedFields & { readonly status: "FAILURE"; readonly failCode: WalletFailCode; readonly failDes: string })

export type State = { readonly status: "ABSENT" } | WalletTransferOrder

export const initialState: State = { status: "ABSENT" }
