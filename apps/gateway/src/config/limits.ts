/**
 * The defaults of the settings that bound what a client can make the
 * gateway hold or spend (apps/gateway/CONNECTIONS.md), and the
 * limits in force once the configuration's own are laid over them.
 */
import type { RateLimit } from "../pipeline/tokenBucket.ts"
import type { GatewayConfig } from "./config.ts"

export interface ConnectionLimits {
  readonly maxOpen: number
  readonly requestsInFlightPerConnection: number
  readonly requestsInFlight: number
  readonly headersTimeoutSeconds: number
  readonly requestTimeoutSeconds: number
  readonly keepAliveTimeoutSeconds: number
}

/**
 * - maxOpen: a connection costs at most about 64 KiB (its socket's read
 *   buffer, headers up to Node's 16 KiB `maxHeaderSize`, the answers of its
 *   requests in flight buffered for a client that does not read); 4,096 of
 *   them is 256 MiB at worst. An idle one costs far less (the hostile
 *   benchmark measures it).
 * - requestsInFlightPerConnection: HTTP/1.1 answers in order, so a client
 *   gains nothing from more than a few running at once; past the bound its
 *   socket is not read.
 * - requestsInFlight: the bound on requests running at once, in all; past
 *   it new requests wait, unread.
 * - headersTimeoutSeconds, requestTimeoutSeconds: a request's headers, and
 *   the whole request with its body, must arrive within 10 s (answered 408
 *   and closed otherwise): a body of the 1 MiB limit at 100 KiB/s or more.
 * - keepAliveTimeoutSeconds: Node's own default for an idle kept-alive connection.
 */
export const connectionLimitsDefault: ConnectionLimits = {
  maxOpen: 4_096,
  requestsInFlightPerConnection: 4,
  requestsInFlight: 1_024,
  headersTimeoutSeconds: 10,
  requestTimeoutSeconds: 10,
  keepAliveTimeoutSeconds: 5,
}

export interface UnauthenticatedBudget {
  readonly perClient: RateLimit
  readonly perConnection: RateLimit
}

/**
 * Each refusal of a request that does not authenticate costs a signature
 * and a verification in the thread pool (about 1 ms of CPU together): 10 a
 * second per client address bounds 40 flooding addresses to 400 a second.
 * The burst is paid once: 200 lets a merchant whose key is wrong, or a
 * test suite of bad requests (a property of a hundred forged signatures
 * on one connection), read every signed refusal it came for.
 */
export const unauthenticatedBudgetDefault: UnauthenticatedBudget = {
  perClient: { requestsPerSecond: 10, burstRequests: 200 },
  perConnection: { requestsPerSecond: 5, burstRequests: 200 },
}

export const connectionLimitsOf = (config: GatewayConfig): ConnectionLimits => ({
  ...connectionLimitsDefault,
  ...config.connections,
})

export const unauthenticatedBudgetOf = (config: GatewayConfig): UnauthenticatedBudget => ({
  ...unauthenticatedBudgetDefault,
  ...config.unauthenticatedBudget,
})
