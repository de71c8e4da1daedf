import type { CardPayoutBank } from "@mizan/card-transfer"
import type { EventStore } from "@mizan/eventsourcing"
import type { BankTransfer, HolderNameLookup, PayoutAbilities, RateSource, WalletTransfer } from "@mizan/transfer"
import type { Gateway } from "../gateway.ts"

/** What the operation handlers may require: built once in `layerGatewayServices`. */
export type HandlerServices =
  | Gateway
  | EventStore
  | PayoutAbilities
  | RateSource
  | HolderNameLookup
  | WalletTransfer.MemberDirectory
  | BankTransfer.PayoutBank
  | CardPayoutBank
