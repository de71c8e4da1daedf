/**
 * `npm run bench -- hostile`: an honest merchant's creates beside hostile
 * clients, all on loopback, in one run against one gateway process:
 *
 * 1. alone, the baseline;
 * 2. beside 40 flooding clients (127.0.0.2 and up, each a distinct client
 *    address), half with an unknown Partner-Id, half with BENCH's
 *    Partner-Id and a forged signature, each pipelining 300 requests per
 *    connection and reconnecting whenever it is closed;
 * 3. beside 60 clients that pipeline 300 signed getOrder each and never
 *    read, 3,000 idle connections, 50 slow bodies and 100 slowloris
 *    clients, all reconnecting when closed.
 *
 * It reports the honest creates' rate against the baseline's, their p99,
 * and the gateway's largest RSS during each phase. The goals (issue list:
 * hostile clients): p99 under 100 ms, rate at least 0.8 of the baseline in
 * phase 2, RSS under 300 MiB in phase 3.
 */
import { mkdtempSync, readFileSync } from "node:fs"
import { connect, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { generateKeyPair, sign } from "@mizan/protocol"
import { benchMerchant, createsFor, sendCreates, startGatewayProcess } from "./gatewayLoad.ts"
import { describeMachine, latenciesOf } from "./harness.ts"

const honestCreates = 400
const honestConnections = 4
const flooders = 40
const pipelined = 300

const rssMiB = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return match === null ? Number.NaN : Number(match[1]) / 1024
}

/** A hostile client: connects from `localAddress`, does `behave`, and connects again whenever closed, until stopped. */
const hostileClients: Array<Socket> = []
let stopped = false
const keepConnecting = (port: number, localAddress: string, behave: (socket: Socket) => void) => {
  const open = () => {
    if (stopped) return
    const socket = connect({ host: "127.0.0.1", port, localAddress })
    hostileClients.push(socket)
    socket.on("error", () => {})
    socket.once("connect", () => behave(socket))
    socket.once("close", () => {
      hostileClients.splice(hostileClients.indexOf(socket), 1)
      setTimeout(open, 10)
    })
  }
  open()
}
const stopHostile = async () => {
  stopped = true
  for (const socket of [...hostileClients]) socket.destroy()
  await new Promise((resolve) => setTimeout(resolve, 500))
  stopped = false
}

const post = (path: string, body: string, headers: Readonly<Record<string, string>>) =>
  [
    `POST ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "",
    body,
  ].join("\r\n")

const forger = generateKeyPair()
const createBody = () =>
  JSON.stringify({
    requestTime: Date.now(),
    bizContent: { merchantOrderNo: `flood-${Date.now()}`, subject: "x", totalAmount: { amount: 1, currency: "AED" } },
  })
const floodRequest = (n: number) => {
  const body = createBody()
  const partnerId = n % 2 === 0 ? "NOBODY" : "BENCH"
  return post("/sgs/api/acquire2/placeOrder", body, { "Partner-Id": partnerId, sign: sign(body, forger.privateKey) })
}
const getOrderBody = JSON.stringify({ requestTime: Date.now(), bizContent: { merchantOrderNo: "none-such" } })
const neverReadRequest = post("/sgs/api/acquire2/getOrder", getOrderBody, {
  "Partner-Id": "BENCH",
  sign: sign(getOrderBody, benchMerchant.privateKey),
})

const loopback = (n: number) => `127.0.0.${2 + (n % 250)}`

const authFlood = (port: number) => {
  for (let n = 0; n < flooders; n++) {
    const request = floodRequest(n).repeat(pipelined)
    keepConnecting(port, loopback(n), (socket) => {
      socket.resume()
      socket.write(request)
    })
  }
}

const trickle = (socket: Socket, bytes: string) => {
  const timer = setInterval(() => socket.write(bytes), 500)
  socket.once("close", () => clearInterval(timer))
}

const connectionFlood = (port: number) => {
  const neverRead = neverReadRequest.repeat(pipelined)
  for (let n = 0; n < 60; n++)
    keepConnecting(port, loopback(n), (socket) => {
      socket.pause()
      socket.write(neverRead)
    })
  for (let n = 0; n < 3_000; n++) keepConnecting(port, loopback(60 + n), () => {})
  for (let n = 0; n < 50; n++)
    keepConnecting(port, loopback(100 + n), (socket) => {
      socket.write("POST /sgs/api/acquire2/placeOrder HTTP/1.1\r\nHost: x\r\nContent-Length: 99999\r\n\r\n")
      trickle(socket, "{")
    })
  for (let n = 0; n < 100; n++)
    keepConnecting(port, loopback(150 + n), (socket) => {
      socket.write("POST /sgs/api/acquire2/placeOrder HTTP/1.1\r\n")
      trickle(socket, "X-Slow: 1\r\n")
    })
}

interface Phase {
  readonly name: string
  readonly ratePerSecond: number
  readonly p99Ms: number
  readonly rssMaxMiB: number
}

const measure = async (name: string, baseUrl: string, pid: number): Promise<Phase> => {
  const requests = createsFor(honestCreates, honestConnections)
  const latencies: Array<number> = []
  let rssMaxMiB = rssMiB(pid)
  const sampler = setInterval(() => {
    rssMaxMiB = Math.max(rssMaxMiB, rssMiB(pid))
  }, 100)
  const startedAt = performance.now()
  await sendCreates({
    baseUrl,
    connections: honestConnections,
    amount: honestCreates,
    requests,
    onLatency: (ms) => latencies.push(ms),
  })
  const seconds = (performance.now() - startedAt) / 1000
  clearInterval(sampler)
  console.error(`measured: ${name}`)
  return { name, ratePerSecond: honestCreates / seconds, p99Ms: latenciesOf(latencies).p99, rssMaxMiB }
}

const dataDir = mkdtempSync(join(tmpdir(), "mizan-bench-hostile-"))
const gateway = await startGatewayProcess({ name: "hostile", dataDir, store: `sqlite:${join(dataDir, "hostile.db")}` })
const pid = gateway.child.pid ?? 0
try {
  console.log(describeMachine())
  await measure("warm-up", gateway.baseUrl, pid)
  const alone = await measure("alone", gateway.baseUrl, pid)
  authFlood(gateway.port)
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  const flooded = await measure(`beside ${flooders} unauthenticated flooders`, gateway.baseUrl, pid)
  await stopHostile()
  const aloneAgain = await measure("alone again", gateway.baseUrl, pid)
  connectionFlood(gateway.port)
  await new Promise((resolve) => setTimeout(resolve, 2_000))
  const open = hostileClients.length
  const held = await measure("beside never-reading, idle, slow-body and slowloris clients", gateway.baseUrl, pid)
  await stopHostile()
  const baseline = (alone.ratePerSecond + aloneAgain.ratePerSecond) / 2
  console.log(`hostile connections open at the start of the last phase: ${open}`)
  for (const phase of [alone, flooded, aloneAgain, held])
    console.log(
      `${phase.name.padEnd(62)} ${phase.ratePerSecond.toFixed(0).padStart(6)}/s  ratio ${(phase.ratePerSecond / baseline).toFixed(2)}  p99 ${phase.p99Ms.toFixed(1)} ms  RSS max ${phase.rssMaxMiB.toFixed(0)} MiB`,
    )
} finally {
  await stopHostile()
  await gateway.stop()
}
