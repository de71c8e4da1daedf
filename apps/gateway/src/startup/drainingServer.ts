/**
 * The gateway's HTTP server, which drains when it stops. Node's `close`
 * refuses new connections and closes the idle ones, but a kept-alive
 * connection that is busy at that moment goes on taking new requests for as
 * long as its client (a load balancer's pool, a merchant's HTTP client) keeps
 * it busy: the gateway then served for the whole graceful-shutdown window
 * and dropped what came after. Once closing, every answer carries
 * `Connection: close`, so each client finishes its request and reconnects
 * elsewhere.
 */
import { Server, type ServerResponse } from "node:http"

class DrainingServer extends Server {
  #closing = false
  /** The answers not yet begun: those the client may otherwise follow on the same connection. */
  readonly #unanswered = new Set<ServerResponse>()

  constructor() {
    super()
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

  override close(callback?: (error?: Error) => void): this {
    this.#closing = true
    for (const response of this.#unanswered) if (!response.headersSent) response.shouldKeepAlive = false
    return super.close(callback)
  }
}

/** A `node:http` server for `NodeHttpServer.layer`: one that sends every kept-alive client away once it closes. */
export const createDrainingServer = (): Server => new DrainingServer()
