/**
 * The merchant API's operation table: one handler per path of the
 * protocol's catalogue, grouped by the domain they serve.
 */
import type { Handlers } from "../pipeline/pipeline.ts"
import { acquiringHandlers } from "./acquiring.ts"
import { payoutHandlers } from "./payout.ts"
import { refundHandlers } from "./refund.ts"
import type { HandlerServices } from "./services.ts"
import { transferHandlers } from "./transfers.ts"

export const handlers: Handlers<HandlerServices> = {
  ...acquiringHandlers,
  ...refundHandlers,
  ...payoutHandlers,
  ...transferHandlers,
}

export type { HandlerServices } from "./services.ts"
