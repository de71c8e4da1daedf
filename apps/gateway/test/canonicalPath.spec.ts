/**
 * One path, one meaning: a request path that is not written canonically is
 * refused with 400 before routing, signed in the spec's envelope under an
 * API's base path, plain elsewhere, and the access log records it as sent.
 * The gateway is a real process; the requests go over raw sockets, since
 * every HTTP client (fetch, the merchant client) normalises a path before
 * sending it and would hide what a hostile client sends.
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parsePublicKey, sign, verify } from "@mizan/protocol"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pathProblem } from "../src/startup/canonicalPath.ts"
import { merchantKeys, newNumber, testConfig, testMerchant } from "./harness.ts"
import { waitUntil } from "./merchantEndpoint.ts"
import { freePort, startService, stopService, writeConfig } from "./processes.ts"

describe("which paths are canonical", () => {
  it.each([
    ["/sgs/api/acquire2/%2e%2e/acquire2/placeOrder", "it percent-encodes a character that has a plain spelling"],
    ["/sgs/api/acquire2/%2E%2E/placeOrder", "it percent-encodes a character that has a plain spelling"],
    ["/sgs/api/acquire2%2fplaceOrder", "it percent-encodes a character that has a plain spelling"],
    ["/sgs/api/acquire2%2FplaceOrder", "it percent-encodes a character that has a plain spelling"],
    ["/sgs/api/acquire2/pl%61ceOrder", "it percent-encodes a character that has a plain spelling"],
    ["/sgs/api/acquire2/placeOrder%", "it has a % that encodes nothing"],
    ["/sgs/api/acquire2/getOrder/../placeOrder", "it has a dot segment"],
    ["/sgs/api/./acquire2/./placeOrder", "it has a dot segment"],
    ["/sgs/sandbox/../api/acquire2/placeOrder", "it has a dot segment"],
    ["/sgs/api/acquire2/placeOrder/..", "it has a dot segment"],
    ["/sgs/api//acquire2/placeOrder", "it has a doubled slash"],
    ["//sgs/api/acquire2/placeOrder", "it has a doubled slash"],
    ["/sgs/api/acquire2/placeOrder/", "it ends with a slash"],
    ["/sgs/api/acquire2\\placeOrder", "it has a backslash"],
    ["/sgs/api/acquire2/%5cplaceOrder", "it percent-encodes a character that has a plain spelling"],
    ["/sgs/api/acquire2/placeOrder#x", "it has a fragment (#)"],
    ["*", "it does not start with /"],
  ])("refuses %s: %s", (path, why) => {
    expect(pathProblem(path)).toMatch(why)
  })

  it.each(["/", "/sgs/api/acquire2/placeOrder", "/sgs/api/acquire2/refund/placeOrder", "/health", "/pay/ab-c_d~e.f"])(
    "takes %s as written",
    (path) => {
      expect(pathProblem(path)).toBeUndefined()
    },
  )
})

interface RawHttpAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** Reads a whole HTTP/1.1 answer from the bytes of a closed connection (a fixed length or chunks). */
const parseAnswer = (raw: string): RawHttpAnswer => {
  const split = raw.indexOf("\r\n\r\n")
  const [statusLine = "", ...headerLines] = raw.slice(0, split).split("\r\n")
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  )
  let body = raw.slice(split + 4)
  if (headers["transfer-encoding"] === "chunked") {
    let decoded = ""
    for (let at = 0; ; ) {
      const lineEnd = body.indexOf("\r\n", at)
      const size = Number.parseInt(body.slice(at, lineEnd), 16)
      if (!(size > 0)) break
      decoded += body.slice(lineEnd + 2, lineEnd + 2 + size)
      at = lineEnd + 2 + size + 2
    }
    body = decoded
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body }
}

/** Sends `POST <target>` byte for byte as written, on a socket of its own, and reads the answer to the end. */
const sendRaw = (port: number, target: string, headers: Record<string, string>, body: string) =>
  new Promise<RawHttpAnswer>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    const chunks: Array<Buffer> = []
    socket.on("data", (chunk) => chunks.push(chunk))
    socket.on("error", reject)
    socket.on("end", () => resolve(parseAnswer(Buffer.concat(chunks).toString("utf8"))))
    const head = Object.entries({
      host: `127.0.0.1:${port}`,
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      connection: "close",
      ...headers,
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("")
    // Written, not ended: a client that half-closes may be hung up on before its answer. `connection: close` ends it.
    socket.write(`POST ${target} HTTP/1.1\r\n${head}\r\n${body}`)
  })

const dataDir = mkdtempSync(join(tmpdir(), "mizan-canonical-"))
const logLines: Array<string> = []
let service: ChildProcess | undefined
let port: number

beforeAll(async () => {
  const json = { format: "json", level: "info" } as const
  const configPath = writeConfig(
    dataDir,
    testConfig({ merchants: [testMerchant("M1")], store: "sqlite:store.db", logging: json }),
  )
  port = await freePort()
  service = await startService(configPath, port, { onLine: (line) => logLines.push(line) })
}, 30_000)

afterAll(async () => {
  if (service !== undefined) await stopService(service)
  rmSync(dataDir, { recursive: true, force: true })
})

const m1Key = merchantKeys("M1").privateKey

/** A signed M1 request to `target`, as an attacker walking past a proxy's allow-list would send it. */
const signedPost = (target: string, bizContent: object) => {
  const body = JSON.stringify({ requestTime: Date.now(), bizContent })
  return sendRaw(port, target, { "Partner-Id": "M1", sign: sign(body, m1Key) }, body)
}

const newOrder = (merchantOrderNo: string) => ({
  merchantOrderNo,
  subject: "path walk",
  totalAmount: { amount: 10, currency: "AED" },
  paySceneCode: "PAYPAGE",
})

interface AccessLine {
  readonly message: string
  readonly annotations: { readonly path: string; readonly status: number; readonly code?: string }
}

const accessLines = (): Array<AccessLine> =>
  logLines
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as AccessLine)
    .filter((line) => /^POST /.test(line.message))

describe("a path walked around a proxy's allow-list, sent to a real gateway", () => {
  it.each([
    "/sgs/api/acquire2/%2e%2e/acquire2/placeOrder",
    "/sgs/api/acquire2/getOrder/../placeOrder",
    "/sgs/api/./acquire2/./placeOrder",
    "/sgs/sandbox/../api/acquire2/placeOrder",
    "/sgs/api/acquire2/placeOrder/",
    "/sgs/api//acquire2/placeOrder",
    "/sgs/api/acquire2%2FplaceOrder",
    "/sgs/api/acquire2\\placeOrder",
  ])("answers %s with a signed 400 INVALID_PARAMETER, places nothing, and logs the path as sent", async (target) => {
    const merchantOrderNo = newNumber("walk")
    const answer = await signedPost(target, newOrder(merchantOrderNo))
    expect(answer.status).toBe(400)
    const servicePublicKey = parsePublicKey(readFileSync(join(dataDir, "service-public.pem"), "utf8"))
    expect(verify(answer.body, answer.headers.sign, servicePublicKey)).toBe(true)
    expect(JSON.parse(answer.body).head).toMatchObject({
      applyStatus: "FAIL",
      code: "400",
      msg: expect.stringMatching(/^INVALID_PARAMETER: the path .* is not canonical: it /),
    })
    await waitUntil(
      () => accessLines().some((line) => line.annotations.path === target && line.annotations.status === 400),
      `the access line of ${target}`,
    )
    expect(accessLines().find((line) => line.annotations.path === target)?.message).toBe(`POST ${target}`)
    // The order was never placed: its own canonical query finds nothing.
    const query = await signedPost("/sgs/api/acquire2/getOrder", { merchantOrderNo })
    expect(JSON.parse(query.body).head.code).toBe("62004")
  })

  it("answers a path outside the APIs plainly, unsigned", async () => {
    const answer = await sendRaw(port, "/pay/../health", {}, "")
    expect(answer.status).toBe(400)
    expect(answer.headers.sign).toBeUndefined()
    expect(answer.headers["content-type"]).toMatch(/^text\/plain/)
    expect(answer.body).toMatch(/^400 Bad Request: the path \/pay\/\.\.\/health is not canonical: it has a dot segment/)
  })

  it("checks the path of an absolute-form target as sent, before the server normalises it", async () => {
    const target = `http://127.0.0.1:${port}/sgs/api/acquire2/getOrder/../placeOrder`
    const answer = await signedPost(target, newOrder(newNumber("absolute")))
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body).head.msg).toMatch(/it has a dot segment/)
  })

  it("still serves the canonical path", async () => {
    const answer = await signedPost("/sgs/api/acquire2/placeOrder", newOrder(newNumber("canonical")))
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body).head.code).toBe("0")
  })
})
