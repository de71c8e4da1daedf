/**
 * A merchant's notification endpoint on loopback, for the multi-process
 * tests: it counts the POSTs of each `notify_id` and records what each
 * notification said (`<merchantOrderNo> <status>`, `<refundMerchantOrderNo>
 * <status>`). It acknowledges every POST, or, with `failFirstAttempts`,
 * answers 500 to each notification's first attempt so that a retry follows.
 */
import { createServer, type Server } from "node:http"

interface Notified {
  readonly notify_id: string
  readonly acquireOrder?: { readonly merchantOrderNo: string; readonly status: string }
  readonly refundOrder?: { readonly refundMerchantOrderNo: string; readonly status: string }
}

export interface MerchantEndpoint {
  readonly url: string
  /** POSTs received, by notify_id. */
  readonly posts: ReadonlyMap<string, number>
  readonly said: ReadonlySet<string>
  /** Every body received, parsed, in order. */
  readonly bodies: ReadonlyArray<unknown>
  readonly close: () => Promise<void>
}

export interface MerchantEndpointOptions {
  readonly failFirstAttempts?: boolean
  /** How long each answer takes, so that attempts are in flight when a test stops the service. */
  readonly answerDelayMs?: number
}

export const startMerchantEndpoint = async (options: MerchantEndpointOptions = {}) => {
  const posts = new Map<string, number>()
  const said = new Set<string>()
  const bodies: Array<unknown> = []
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Notified
      bodies.push(body)
      const count = (posts.get(body.notify_id) ?? 0) + 1
      posts.set(body.notify_id, count)
      if (body.acquireOrder !== undefined) said.add(`${body.acquireOrder.merchantOrderNo} ${body.acquireOrder.status}`)
      if (body.refundOrder !== undefined)
        said.add(`${body.refundOrder.refundMerchantOrderNo} ${body.refundOrder.status}`)
      const answer = () => {
        if (options.failFirstAttempts === true && count === 1) response.writeHead(500).end("not yet")
        else response.writeHead(200).end("SUCCESS")
      }
      if (options.answerDelayMs === undefined) answer()
      else setTimeout(answer, options.answerDelayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/notify`
  return {
    url,
    posts,
    said,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } satisfies MerchantEndpoint
}

/** Waits (polling, up to `timeoutMs`) until `holds` answers true. */
export const waitUntil = async (holds: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await holds())) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
