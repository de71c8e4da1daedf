/**
 * Backpressure for node:http (apps/gateway/CONNECTIONS.md). Node's
 * server parses every pipelined request of a chunk it reads and hands them
 * all to the handler at once: a client that pipelines 300 requests and
 * never reads the answers had them all run, their answers held in memory.
 * The gate lets a connection run at most `perConnection` requests at once,
 * and the server `total`; a request past either bound waits, and its
 * connection's socket is not read until one of its own finishes. A request
 * is done when its answer is handed to the socket: an answer a client does
 * not read keeps its request in flight, so such a client stops being read.
 */

/** What the gate needs of a connection's socket (a `net.Socket`). */
export interface GatedSocket {
  pause(): unknown
  resume(): unknown
  once(event: "close", listener: () => void): unknown
}

/** What the gate needs of an answer (a `ServerResponse`): its end, delivered or not. */
export interface GatedResponse {
  once(event: "close", listener: () => void): unknown
}

interface ConnectionState {
  inFlight: number
  readonly waiting: Array<() => void>
  pausedByGate: boolean
}

export class RequestGate {
  readonly #perConnection: number
  readonly #total: number
  #inFlight = 0
  readonly #connections = new WeakMap<GatedSocket, ConnectionState>()
  /** Connections with requests waiting for the total bound, oldest first. */
  readonly #blocked = new Set<GatedSocket>()

  constructor(perConnection: number, total: number) {
    this.#perConnection = perConnection
    this.#total = total
  }

  /** The requests running now, in all. */
  get inFlight(): number {
    return this.#inFlight
  }

  /** Runs `start` (which hands the request to the handler) now or once the bounds allow. */
  admit(socket: GatedSocket, response: GatedResponse, start: () => void): void {
    const state = this.#stateOf(socket)
    state.waiting.push(() => {
      state.inFlight++
      this.#inFlight++
      response.once("close", () => this.#finished(socket, state))
      start()
    })
    this.#pump(socket, state)
  }

  #stateOf(socket: GatedSocket): ConnectionState {
    const known = this.#connections.get(socket)
    if (known !== undefined) return known
    const state: ConnectionState = { inFlight: 0, waiting: [], pausedByGate: false }
    this.#connections.set(socket, state)
    // The requests still waiting on a closed connection have no one to answer.
    socket.once("close", () => {
      state.waiting.length = 0
      this.#blocked.delete(socket)
    })
    return state
  }

  #pump(socket: GatedSocket, state: ConnectionState) {
    while (state.waiting.length > 0 && state.inFlight < this.#perConnection && this.#inFlight < this.#total)
      state.waiting.shift()?.()
    if (state.waiting.length > 0) {
      if (state.inFlight < this.#perConnection) this.#blocked.add(socket)
      if (!state.pausedByGate) {
        state.pausedByGate = true
        socket.pause()
      }
    } else if (state.pausedByGate) {
      state.pausedByGate = false
      socket.resume()
    }
  }

  #finished(socket: GatedSocket, state: ConnectionState) {
    state.inFlight--
    this.#inFlight--
    this.#pump(socket, state)
    for (const blocked of this.#blocked) {
      if (this.#inFlight >= this.#total) return
      this.#blocked.delete(blocked)
      const blockedState = this.#connections.get(blocked)
      if (blockedState !== undefined) this.#pump(blocked, blockedState)
    }
  }
}
