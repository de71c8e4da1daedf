/** The request gate: a connection runs a bounded number of requests at once, and is not read past it. */
import { EventEmitter } from "node:events"
import { describe, expect, it } from "vitest"
import { RequestGate } from "../src/startup/requestGate.ts"

class FakeSocket extends EventEmitter {
  paused = false
  pause() {
    this.paused = true
    return this
  }
  resume() {
    this.paused = false
    return this
  }
}

/** `count` requests admitted on `socket`; each started one's `finish` answers it. */
const admitAll = (gate: RequestGate, socket: FakeSocket, count: number) => {
  const started: Array<{ finish: () => void }> = []
  for (let n = 0; n < count; n++) {
    const response = new EventEmitter()
    gate.admit(socket, response, () => started.push({ finish: () => response.emit("close") }))
  }
  return started
}

describe("the request gate", () => {
  it("runs at most the per-connection bound of a connection's requests, pausing its socket", () => {
    const gate = new RequestGate(2, 100)
    const socket = new FakeSocket()
    const started = admitAll(gate, socket, 5)
    expect(started).toHaveLength(2)
    expect(socket.paused).toBe(true)
    started[0]?.finish()
    expect(started).toHaveLength(3)
    for (let n = 1; n < 5; n++) started[n]?.finish()
    expect(started).toHaveLength(5)
    expect(socket.paused).toBe(false)
    expect(gate.inFlight).toBe(0)
  })

  it("holds every connection to the total bound, and lets a waiting one in as others finish", () => {
    const gate = new RequestGate(4, 3)
    const first = new FakeSocket()
    const second = new FakeSocket()
    const firstStarted = admitAll(gate, first, 3)
    const secondStarted = admitAll(gate, second, 2)
    expect(gate.inFlight).toBe(3)
    expect(secondStarted).toHaveLength(0)
    expect(second.paused).toBe(true)
    firstStarted[0]?.finish()
    expect(secondStarted).toHaveLength(1)
    firstStarted[1]?.finish()
    expect(secondStarted).toHaveLength(2)
    expect(second.paused).toBe(false)
  })

  it("drops the requests still waiting when their connection closes", () => {
    const gate = new RequestGate(1, 10)
    const socket = new FakeSocket()
    const started = admitAll(gate, socket, 3)
    socket.emit("close")
    started[0]?.finish()
    expect(started).toHaveLength(1)
    expect(gate.inFlight).toBe(0)
  })
})
