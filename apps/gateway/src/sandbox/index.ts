/**
 * The sandbox API (sandbox mode only): the helpers a merchant uses to drive
 * every outcome it must handle without waiting, in the spirit of Stripe's
 * test helpers and test clocks. Same envelope, signatures and errors as the
 * merchant API, under `/sgs/sandbox`; no grant is needed.
 */
import { sandboxBasePath } from "@mizan/protocol"
import type { HandlerServices } from "../handlers/services.ts"
import type { Api } from "../pipeline/pipeline.ts"
import { acquiringSandboxOperations } from "./acquiring.ts"
import { clockSandboxOperations } from "./clock.ts"
import { transferSandboxOperations } from "./transfers.ts"

export const sandboxApi: Api<HandlerServices> = {
  basePath: sandboxBasePath,
  operations: { ...acquiringSandboxOperations, ...transferSandboxOperations, ...clockSandboxOperations },
}

/**
 * What a production gateway serves under the sandbox's path: no helper, but
 * a signed refusal that says why. Unrouted, the path answered the router's
 * bare 404, which a merchant's client reads as a broken connection.
 */
export const sandboxApiOff: Api<never> = {
  basePath: sandboxBasePath,
  operations: {},
  absentBecause: "the sandbox API is served in sandbox mode only, and this gateway runs in production mode",
}
