/**
 * The budgets of requests that do not authenticate (apps/gateway/CONNECTIONS.md). Every API request takes a token from its client address's
 * bucket and its connection's before the pipeline runs; one that
 * authenticates gives both back. So a missing or unknown Partner-Id and a
 * signature that does not verify all draw on the same budget, and an honest
 * merchant's requests cost it nothing. Past either, the request is answered
 * a plain 429 and its connection closed, before any signature is checked or
 * made: what a client without a valid key can make the service spend is
 * bounded by the budget.
 */
import type { UnauthenticatedBudget } from "../config/limits.ts"
import { type Bucket, fullBucket, returnToken, takeToken } from "./tokenBucket.ts"

/** Who sent a request: the client address (behind a trusted proxy, the one it forwards) and the connection. */
export interface RequestClient {
  readonly address: string
  readonly connection: object
}

/** Past this many client addresses, those whose buckets are full again are forgotten. */
const addressesKeptMax = 10_000

export class UnauthenticatedBudgets {
  readonly #budget: UnauthenticatedBudget
  readonly #byAddress = new Map<string, Bucket>()
  readonly #byConnection = new WeakMap<object, Bucket>()

  constructor(budget: UnauthenticatedBudget) {
    this.#budget = budget
  }

  /** Takes the request's tokens; false, taking none, when the client or its connection is past its budget. */
  take(client: RequestClient, nowMs: number): boolean {
    const { perClient, perConnection } = this.#budget
    if (this.#byAddress.size >= addressesKeptMax) this.#forgetFull(nowMs)
    const address = this.#byAddress.get(client.address) ?? fullBucket(perClient, nowMs)
    this.#byAddress.set(client.address, address)
    const connection = this.#byConnection.get(client.connection) ?? fullBucket(perConnection, nowMs)
    this.#byConnection.set(client.connection, connection)
    if (!takeToken(address, perClient, nowMs)) return false
    if (takeToken(connection, perConnection, nowMs)) return true
    returnToken(address, perClient)
    return false
  }

  /** Gives the tokens back: the request authenticated. */
  giveBack(client: RequestClient): void {
    const address = this.#byAddress.get(client.address)
    if (address !== undefined) returnToken(address, this.#budget.perClient)
    const connection = this.#byConnection.get(client.connection)
    if (connection !== undefined) returnToken(connection, this.#budget.perConnection)
  }

  #forgetFull(nowMs: number) {
    const { perClient } = this.#budget
    for (const [address, bucket] of this.#byAddress) {
      const refilled = bucket.tokens + ((nowMs - bucket.updatedAtMs) / 1000) * perClient.requestsPerSecond
      if (refilled >= perClient.burstRequests) this.#byAddress.delete(address)
    }
  }
}

/** `::ffff:127.0.0.2` and `127.0.0.2` are one client. */
const plainAddress = (address: string) => (address.startsWith("::ffff:") ? address.slice(7) : address)

/**
 * The client address of a request that came from `peer`: `peer` itself,
 * unless it is a trusted proxy; then the last address of `X-Forwarded-For`
 * that is not one (each proxy appends the address it was reached from, so
 * the ones before the last untrusted entry are the client's own word).
 */
export const clientAddressOf = (
  peer: string,
  forwardedFor: string | undefined,
  trustedProxies: ReadonlySet<string>,
): string => {
  const address = plainAddress(peer)
  if (!trustedProxies.has(address) || forwardedFor === undefined) return address
  const hops = forwardedFor
    .split(",")
    .map((hop) => plainAddress(hop.trim()))
    .filter((hop) => hop !== "")
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string
    if (!trustedProxies.has(hop)) return hop
  }
  return hops[0] ?? address
}
