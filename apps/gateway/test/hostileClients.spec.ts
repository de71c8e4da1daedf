/**
 * What a client that does not play fair can make the gateway hold or spend
 * (apps/gateway/CONNECTIONS.md): raw sockets against a listening
 * gateway, each client on a loopback address of its own (127.0.0.x).
 */
import { sign } from "@mizan/protocol"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { merchantKeys, startGateway, type TestGateway, testConfig } from "./harness.ts"
import { exchangeRaw, openRaw, rawPost } from "./rawSocket.ts"

const getOrderPath = "/sgs/api/acquire2/getOrder"
const getOrderBody = () => JSON.stringify({ requestTime: Date.now(), bizContent: { merchantOrderNo: "none-such" } })
const signedBy = (partnerId: string, body = getOrderBody()) =>
  rawPost(getOrderPath, body, { "Partner-Id": partnerId, sign: sign(body, merchantKeys(partnerId).privateKey) })
/** M1's Partner-Id with M2's signature: a forged request of a real merchant. */
const forged = (body = getOrderBody()) =>
  rawPost(getOrderPath, body, { "Partner-Id": "M1", sign: sign(body, merchantKeys("M2").privateKey) })
const unknownPartner = (body = getOrderBody()) =>
  rawPost(getOrderPath, body, { "Partner-Id": "NOBODY", sign: sign(body, merchantKeys("M2").privateKey) })

const portOf = (gateway: TestGateway) => Number(new URL(gateway.baseUrl).port)

describe("the unauthenticated budget", () => {
  let gateway: TestGateway
  let port: number
  beforeAll(async () => {
    gateway = await startGateway({
      config: testConfig({
        unauthenticatedBudget: {
          perClient: { requestsPerSecond: 0.01, burstRequests: 3 },
          perConnection: { requestsPerSecond: 0.01, burstRequests: 2 },
        },
        trustedProxies: ["127.0.0.9"],
      }),
    })
    port = portOf(gateway)
  })
  afterAll(() => gateway.close())

  /** Each request on a connection of its own, from `localAddress`; the statuses in order. */
  const oneByOne = async (requests: ReadonlyArray<string>, localAddress: string) => {
    const statuses: Array<number> = []
    for (const request of requests) {
      const answer = await exchangeRaw(port, request, { localAddress, answers: 1 })
      statuses.push(...answer.statuses)
    }
    return statuses
  }

  it("answers a plain 429 past a client's budget, unknown Partner-Ids and forged signatures alike", async () => {
    const statuses = await oneByOne([unknownPartner(), forged(), unknownPartner(), forged()], "127.0.0.2")
    expect(statuses).toEqual([200, 200, 200, 429])
    const past = await exchangeRaw(port, forged(), { localAddress: "127.0.0.2" })
    expect(past.text).toMatch(/^HTTP\/1\.1 429 /)
    expect(past.text.toLowerCase()).toContain("retry-after: 1")
    expect(past.text.toLowerCase()).not.toContain("\r\nsign:")
    expect(past.closedAfterMs).toBeDefined()
  })

  it("charges nothing for requests that authenticate", async () => {
    const honest = Array.from({ length: 8 }, () => signedBy("M1"))
    expect(await oneByOne([...honest, forged(), forged(), forged()], "127.0.0.3")).toEqual([
      ...honest.map(() => 200),
      200,
      200,
      200,
    ])
    // Past the budget nothing is verified: a merchant behind the same address is refused too, until it refills.
    expect(await oneByOne([signedBy("M1")], "127.0.0.3")).toEqual([429])
  })

  it("answers 429 and closes a connection past its own budget", async () => {
    const answer = await exchangeRaw(port, [forged(), forged(), forged(), forged()].join(""), {
      localAddress: "127.0.0.4",
    })
    expect(answer.statuses).toEqual([200, 200, 429])
    expect(answer.closedAfterMs).toBeDefined()
    // The client's own budget has a token left: a new connection is answered with the signed envelope.
    expect(await oneByOne([forged()], "127.0.0.4")).toEqual([200])
  })

  it("believes X-Forwarded-For from a trusted proxy only", async () => {
    const through = (client: string) =>
      rawPost(getOrderPath, getOrderBody(), { "Partner-Id": "NOBODY", sign: "x", "X-Forwarded-For": client })
    // Behind the trusted proxy, each forwarded address is a client of its own.
    const forwarded = ["10.1.0.1", "10.1.0.2", "10.1.0.3", "10.1.0.4", "10.1.0.5"].map(through)
    expect(await oneByOne(forwarded, "127.0.0.9")).toEqual([200, 200, 200, 200, 200])
    // From any other address, the header is the client's own word: one client.
    expect(await oneByOne(forwarded, "127.0.0.5")).toEqual([200, 200, 200, 429, 429])
  })
})

describe("connection bounds", () => {
  let gateway: TestGateway
  let port: number
  beforeAll(async () => {
    gateway = await startGateway({
      config: testConfig({
        connections: {
          maxOpen: 20,
          headersTimeoutSeconds: 1,
          requestTimeoutSeconds: 2,
          requestsInFlightPerConnection: 2,
        },
      }),
    })
    port = portOf(gateway)
  })
  afterAll(() => gateway.close())

  it("answers 408 and closes a body that does not arrive, within the request timeout", async () => {
    const head = rawPost(getOrderPath, "", { "Partner-Id": "M1", sign: "x" }).replace(
      "Content-Length: 0",
      "Content-Length: 99999999999",
    )
    const answer = await exchangeRaw(port, `${head}0123456789`, { waitMs: 6_000 })
    expect(answer.statuses).toEqual([408])
    // 2 s, and Node looks for expired requests once a second.
    expect(answer.closedAfterMs).toBeLessThan(3_500)
  })

  it("answers 408 and closes headers that do not arrive, within the header timeout", async () => {
    const answer = await exchangeRaw(port, "POST /sgs/api/acquire2/getOrder HTTP/1.1\r\nHost: x\r\n", {
      waitMs: 6_000,
    })
    expect(answer.statuses).toEqual([408])
    expect(answer.closedAfterMs).toBeLessThan(2_500)
  })

  it("serves every request a connection pipelines, in order, past the in-flight bound", async () => {
    const requests = Array.from({ length: 12 }, (_, n) =>
      signedBy("M1", JSON.stringify({ requestTime: Date.now(), bizContent: { merchantOrderNo: `pipelined-${n}` } })),
    )
    const answer = await exchangeRaw(port, requests.join(""), { answers: 12 })
    expect(answer.statuses).toEqual(requests.map(() => 200))
    const numbers = [...answer.text.matchAll(/pipelined-(\d+)/g)].map((match) => Number(match[1]))
    if (numbers.length > 0) expect(numbers).toEqual([...numbers].sort((a, b) => a - b))
  })

  it("closes the connections past the cap on open connections", async () => {
    const sockets = await Promise.all(Array.from({ length: 20 }, () => openRaw(port)))
    try {
      const past = await exchangeRaw(port, signedBy("M1"), { waitMs: 2_000 })
      expect(past.statuses).toEqual([])
      expect(past.closedAfterMs).toBeDefined()
    } finally {
      for (const socket of sockets) socket.destroy()
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await exchangeRaw(port, signedBy("M1"), { answers: 1 })).statuses).toEqual([200])
  })
})
