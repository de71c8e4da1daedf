/**
 * The sandbox API (sandbox mode only): the helpers a merchant uses to drive
 * every outcome it must handle without waiting, in the spirit of Stripe's
 * test helpers and test clocks. Same envelope, signatures and errors as the
 * merchant API, under `/sgs/sandbox`; no grant is needed.
 */
import { sandboxBasePath } from "@mizan/protocol"
import type { HandlerServices } from "../handlers/services.ts"
import type { Api } from "../pipeline.ts"
import { acquiringSandboxOperations } from "./acquiring.ts"
import { clockSandboxOperations } from "./clock.ts"
import { transferSandboxOperations } from "./transfers.ts"

export const sandboxApi: Api<HandlerServices> = {
  basePath: sandboxBasePath,
  operations: { ...acquiringSandboxOperations, ...transferSandboxOperations, ...clockSandboxOperations },
}
