/**
 * The gateway's HTTP server, which drains when it stops and bounds what
 * each client holds (apps/gateway/CONNECTIONS.md).
 *
 * Draining: Node's `close` refuses new connections and closes the idle
 * ones, but a kept-alive connection that is busy at that moment goes on
 * taking new requests for as long as its client (a load balancer's pool, a
 * merchant's HTTP client) keeps it busy: the gateway then served for the
 * whole graceful-shutdown window and dropped what came after. Once closing,
 * every answer carries `Connection: close`, so each client finishes its
 * request and reconnects elsewhere.
 *
 * Bounds: Node's own timeouts (a request whose headers or body do not
 * arrive in time is answered 408 and closed), checked every second rather
 * than Node's 30, a cap on open connections, and the request gate.
 */
import type { IncomingMessage } from "node:http"
import { Server, type ServerResponse } from "node:http"
import { type ConnectionLimits, connectionLimitsDefault } from "../config/limits.ts"
import { RequestGate } from "./requestGate.ts"

/** How often Node looks for requests past their timeouts: the slack on each timeout. */
const timeoutCheckMs = 1_000

class DrainingServer extends Server {
  #closing = false
  /** The answers not yet begun: those the client may otherwise follow on the same connection. */
  readonly #unanswered = new Set<ServerResponse>()
  readonly #gate: RequestGate

  constructor(limits: ConnectionLimits) {
    super({
      headersTimeout: limits.headersTimeoutSeconds * 1_000,
      requestTimeout: limits.requestTimeoutSeconds * 1_000,
      keepAliveTimeout: limits.keepAliveTimeoutSeconds * 1_000,
      connectionsCheckingInterval: timeoutCheckMs,
    })
    this.maxConnections = limits.maxOpen
    this.#gate = new RequestGate(limits.requestsInFlightPerConnection, limits.requestsInFlight)
    // Registered before any handler, so it sees each request first.
    this.on("request", (_request, response: ServerResponse) => {
      if (this.#closing) {
        response.shouldKeepAlive = false
        return
      }
      this.#unanswered.add(response)
      response.once("close", () => this.#unanswered.delete(response))
    })
  }

  /** Every request reaches the handlers through the gate. */
  // biome-ignore lint/suspicious/noExplicitAny: EventEmitter's own signature
  override emit(event: string, ...args: Array<any>): boolean {
    if (event !== "request") return super.emit(event, ...args)
    const [request, response] = args as [IncomingMessage, ServerResponse]
    this.#gate.admit(request.socket, response, () => super.emit("request", request, response))
    return true
  }

  override close(callback?: (error?: Error) => void): this {
    this.#closing = true
    for (const response of this.#unanswered) if (!response.headersSent) response.shouldKeepAlive = false
    return super.close(callback)
  }
}

/** A `node:http` server for `NodeHttpServer.layer`: bounded as `limits` says, and sending every kept-alive client away once it closes. */
export const createDrainingServer = (limits: ConnectionLimits = connectionLimitsDefault): Server =>
  new DrainingServer(limits)
