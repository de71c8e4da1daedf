/**
 * A stopping gateway sends its kept-alive clients away: Node's `close` stops
 * new connections and closes idle ones, but goes on serving new requests on
 * a connection that was busy, for as long as its client keeps it busy.
 */
import { Agent, get, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { createDrainingServer } from "../src/startup/drainingServer.ts"

const opened: Array<{ server: Server; agent: Agent }> = []
afterEach(() => {
  for (const { server, agent } of opened.splice(0)) {
    agent.destroy()
    server.closeAllConnections()
  }
})

/** A server whose `/held` requests wait for `release`, and a client that keeps one connection alive. */
const start = async () => {
  const server = createDrainingServer()
  const held: Array<() => void> = []
  let arrived = () => {}
  server.on("request", (request, response) => {
    const answer = () => response.end("ok")
    // `/streaming` has begun its answer when it is held: too late to say `Connection: close` in it.
    if (request.url === "/streaming") response.writeHead(200).write("o")
    if (request.url === "/held" || request.url === "/streaming") {
      held.push(answer)
      arrived()
    } else answer()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  opened.push({ server, agent })
  const { port } = server.address() as AddressInfo
  const request = (path: string) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      get({ host: "127.0.0.1", port, path, agent }, (response) => {
        response.resume()
        response.on("end", () => resolve(response))
      }).on("error", reject)
    })
  const heldArrives = () => new Promise<void>((resolve) => (arrived = resolve))
  return { server, request, heldArrives, release: () => held.shift()?.() }
}

describe("the gateway's HTTP server while it stops", () => {
  it("keeps a connection alive while it serves", async () => {
    const { request } = await start()
    expect((await request("/")).headers.connection).toBe("keep-alive")
  })

  it("closes the connection of a request in flight when it stops, once it has answered", async () => {
    const { server, request, heldArrives, release } = await start()
    await request("/")
    const arrived = heldArrives()
    const inFlight = request("/held")
    await arrived
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    release()
    const answer = await inFlight
    expect(answer.statusCode).toBe(200)
    expect(answer.headers.connection).toBe("close")
    // With no connection left, the server is closed.
    await closed
  })

  it("answers a request that follows on a busy connection after it stopped with Connection: close", async () => {
    const { server, request, heldArrives, release } = await start()
    const arrived = heldArrives()
    const streaming = request("/streaming")
    await arrived
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    release()
    expect((await streaming).headers.connection).toBe("keep-alive")
    const next = await request("/")
    expect([next.statusCode, next.headers.connection]).toEqual([200, "close"])
    await closed
  })
})
