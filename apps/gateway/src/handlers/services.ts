import type { CardPayoutBank } from "@mizan/card-transfer"
import type { EventStore } from "@mizan/eventsourcing"
import type { MemberDirectory } from "@mizan/order-flows"
import type { BankTransfer, HolderNameLookup, PayoutAbilities, RateSource } from "@mizan/transfer"
import type { ApiSettings } from "../pipeline/apiSettings.ts"

/** What the operation handlers may require: built once in `layerGatewayServices`. */
export type HandlerServices =
  | ApiSettings
  | EventStore
  | PayoutAbilities
  | RateSource
  | HolderNameLookup
  | MemberDirectory
  | BankTransfer.PayoutBank
  | CardPayoutBank
