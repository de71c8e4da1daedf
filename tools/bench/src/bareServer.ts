/**
 * The gateway benchmark's second ceiling: what a create order
 * costs with nothing but the work every such service must do, written
 * straight on `node:http`, `node:crypto` and `node:sqlite`. Run as a child
 * process by `src/gateway.ts` (started like the gateway, so that both pay
 * the same process boundary and share the machine alike), it:
 *
 * 1. reads the body and verifies its `sign` header (RSA-2048,
 *    SHA256withRSA) with the merchant's public key, on the event loop (the
 *    gateway checks it in the thread pool, which saves its loop about 15 µs
 *    a request);
 * 2. parses the JSON and takes the merchant order number;
 * 3. decides on a unique index: the order is new when its row goes in,
 *    a repeat when the merchant order number is already there;
 * 4. commits durably with group commit: the requests that arrived while the
 *    last commit ran are written in one `BEGIN IMMEDIATE ... COMMIT` on a
 *    write-ahead log, and none is answered before its commit is durable.
 *    `BARE_SYNCHRONOUS` says how, as the gateway's store does
 *    (libs/store-sqlite/README.md, Durability):
 *    - `full-offloaded` (the default, the store's default and the ceiling
 *      the gateway is measured against): commit at NORMAL, then
 *      `fdatasync` of the log in libuv's thread pool before answering; the
 *      next batch commits while the sync runs, and one sync answers every
 *      batch committed before it started;
 *    - `full`: commit at FULL, SQLite syncing the log on the event loop;
 * 5. signs the answer in libuv's thread pool (`crypto.sign` with a
 *    callback, as the gateway does) and sends it with the `sign` header.
 *
 * No validation of fields beyond that, no events, no framework: the gap
 * between this and the gateway is what the gateway's own layers cost.
 *
 * `BARE_EDGE=effect-http` serves the same work through effect/http instead
 * of `node:http` (bareEffectEdge.ts): Effect's router, a fiber per request,
 * the body read and the answer signed as Effect steps. The gap between the
 * two is what the framework costs a request on its own, before any of the
 * gateway's layers.
 *
 * `BARE_WORK=gateway` does the gateway's work for a create in place of
 * steps 1-3 and the answer (bareGatewayWork.ts): the wire's schemas, the
 * domain's decision, the sealer, the store's encoding and chain, the pay
 * token, each a plain function. The gap between that and the gateway is
 * what the gateway's layering costs.
 *
 * Environment: `PORT`, `BARE_DB` (the SQLite file), `BARE_SYNCHRONOUS`
 * (above), `BARE_SERVICE_KEY` (a PKCS#8 PEM file), `BARE_MERCHANT_KEY`
 * (the merchant's public key PEM), `BARE_EDGE` (`node-http`, the default,
 * or `effect-http`) and `BARE_WORK` (`minimal`, the default, or `gateway`).
 */
import { createPrivateKey, createPublicKey, randomBytes, sign, verify } from "node:crypto"
import { closeSync, fdatasync, fsyncSync, openSync, readFileSync } from "node:fs"
import { createServer, type ServerResponse } from "node:http"
import { dirname } from "node:path"
import { DatabaseSync } from "node:sqlite"
import type { GroupCommits } from "./bareGatewayWork.ts"

const required = (name: string): string => {
  const value = process.env[name]
  if (value === undefined || value === "") throw new Error(`bareServer: ${name} must be set`)
  return value
}

const servicePrivateKey = createPrivateKey(readFileSync(required("BARE_SERVICE_KEY"), "utf8"))
const merchantPublicKey = createPublicKey(readFileSync(required("BARE_MERCHANT_KEY"), "utf8"))

const synchronousLevels = ["full-offloaded", "full"] as const
const synchronous = process.env.BARE_SYNCHRONOUS ?? "full-offloaded"
if (!(synchronousLevels as ReadonlyArray<string>).includes(synchronous))
  throw new Error(`bareServer: BARE_SYNCHRONOUS must be one of ${synchronousLevels.join(", ")}, not ${synchronous}`)
const offloaded = synchronous === "full-offloaded"

const databasePath = required("BARE_DB")
const db = new DatabaseSync(databasePath)
db.exec("PRAGMA journal_mode = WAL")
db.exec(`PRAGMA synchronous = ${offloaded ? "NORMAL" : "FULL"}`)
db.exec(`CREATE TABLE IF NOT EXISTS orders (
  position INTEGER PRIMARY KEY,
  merchant_order_no TEXT NOT NULL UNIQUE,
  order_no TEXT NOT NULL,
  data TEXT NOT NULL
)`)
const begin = db.prepare("BEGIN IMMEDIATE")
const commit = db.prepare("COMMIT")
// The unique index decides: a row that is already there is not written again.
const insert = db.prepare(
  "INSERT INTO orders (merchant_order_no, order_no, data) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
)
const existing = db.prepare("SELECT order_no FROM orders WHERE merchant_order_no = ?")

/** Answers a request with its envelope, once its commit is durable: the edge serializes, signs and sends it. */
type Reply = (envelope: unknown) => void

interface Pending {
  readonly merchantOrderNo: string
  readonly request: Record<string, unknown>
  readonly reply: Reply
}

/** Signs an answer's body in the thread pool (`crypto.sign` with a callback). */
const signBody = (body: string, signed: (error: Error | null, signature: Buffer) => void) =>
  sign("sha256", Buffer.from(body, "utf8"), servicePrivateKey, signed)

const answer = (response: ServerResponse, envelope: unknown) => {
  const body = JSON.stringify(envelope)
  signBody(body, (error, signature) => {
    if (error !== null) {
      response.writeHead(500).end()
      return
    }
    response
      .writeHead(200, { "content-type": "application/json; charset=utf-8", sign: signature.toString("base64") })
      .end(body)
  })
}

const head = (code: string, msg: string) => ({
  applyStatus: code === "0" ? "SUCCESS" : "FAIL",
  code,
  msg,
  traceCode: randomBytes(8).toString("hex"),
})

/**
 * Calls `done` once every commit made before the call is on disk: at once
 * at FULL, whose `COMMIT` synced the log. At `full-offloaded` one
 * `fdatasync` of the log runs at a time, in the thread pool; who asks while
 * it runs waits for the next, which starts when it ends (the running one
 * may have started before their commit). A failed sync ends the process:
 * nothing since the last good one can be called durable.
 */
const afterNextSync = (() => {
  if (!offloaded) return (done: () => void) => done()
  // SQLite created the log at the first read above; it keeps the file (truncating it in place) while this connection is open.
  const log = openSync(`${databasePath}-wal`, "r")
  // As SQLite does at the first sync of a log it created: until the folder is synced, a power loss may forget the file.
  const folder = openSync(dirname(databasePath), "r")
  fsyncSync(folder)
  closeSync(folder)
  let waiting: Array<() => void> = []
  let syncing = false
  const start = () => {
    const waiters = waiting
    waiting = []
    syncing = true
    fdatasync(log, (error) => {
      if (error !== null) throw error
      for (const done of waiters) done()
      syncing = false
      if (waiting.length > 0) start()
    })
  }
  return (done: () => void) => {
    waiting.push(done)
    if (!syncing) start()
  }
})()

const answerCreated = (pending: Pending, orderNo: string) => {
  const biz = pending.request
  pending.reply({
    head: head("0", "SUCCESS"),
    body: {
      acquireOrder: {
        orderNo,
        merchantOrderNo: pending.merchantOrderNo,
        subject: biz.subject,
        totalAmount: biz.totalAmount,
        paySceneCode: biz.paySceneCode,
        notifyUrl: biz.notifyUrl,
        status: "CREATED",
        requestTime: Date.now(),
        expiredTime: Date.now() + 3_600_000,
      },
      interactionParams: { tokenUrl: `http://127.0.0.1/pay/${randomBytes(32).toString("base64url")}` },
    },
  })
}

/**
 * Group commit: what `take` queues goes into the next commit, one
 * transaction for every request queued since the last (`commitBatch`
 * writes the batch and answers how to acknowledge it), made after the poll
 * phase so that every request the sockets already hold joins it; one sync
 * of the log (the first to start after the commit, when offloaded)
 * acknowledges them all.
 */
const inGroupCommits: GroupCommits = <P>(commitBatch: (batch: ReadonlyArray<P>) => () => void) => {
  let queue: Array<P> = []
  let flushScheduled = false
  const flush = () => {
    flushScheduled = false
    const batch = queue
    queue = []
    afterNextSync(commitBatch(batch))
  }
  return (pending: P) => {
    queue.push(pending)
    if (!flushScheduled) {
      flushScheduled = true
      setImmediate(flush)
    }
  }
}

const submitMinimal = inGroupCommits<Pending>((batch) => {
  const orderNos: Array<string> = []
  begin.run()
  for (const pending of batch) {
    const orderNo = `${Date.now()}1${randomBytes(6).toString("hex")}`
    const { changes } = insert.run(pending.merchantOrderNo, orderNo, JSON.stringify(pending.request))
    orderNos.push(
      changes === 1 ? orderNo : String(existing.get(pending.merchantOrderNo)?.order_no ?? "an order written before"),
    )
  }
  commit.run()
  return () => {
    for (const [i, pending] of batch.entries()) answerCreated(pending, orderNos[i]!)
  }
})

/** Takes a create order: verified, parsed, then queued for the next commit; `reply` gets its answer. */
const takeMinimal = (raw: Buffer, signature: string | undefined, reply: Reply) => {
  if (signature === undefined || !verify("sha256", raw, merchantPublicKey, Buffer.from(signature, "base64")))
    return reply({ head: head("403", "UNAUTHORIZED") })
  let biz: Record<string, unknown>
  try {
    biz = (JSON.parse(raw.toString("utf8")) as { bizContent: Record<string, unknown> }).bizContent
  } catch {
    return reply({ head: head("400", "INVALID_PARAMETER") })
  }
  const merchantOrderNo = biz?.merchantOrderNo
  if (typeof merchantOrderNo !== "string") return reply({ head: head("400", "INVALID_PARAMETER") })
  submitMinimal({ merchantOrderNo, request: biz, reply })
}

const work = process.env.BARE_WORK ?? "minimal"
if (work !== "minimal" && work !== "gateway")
  throw new Error(`bareServer: BARE_WORK must be minimal or gateway, not ${work}`)
const take =
  work === "minimal"
    ? takeMinimal
    : // Imported here, not above: the minimal work loads none of the gateway's libraries.
      (await import("./bareGatewayWork.ts")).gatewayWork({
        db,
        merchantPublicKey,
        servicePrivateKey,
        inGroupCommits,
      })

const port = Number(required("PORT"))
const edge = process.env.BARE_EDGE ?? "node-http"
if (edge === "effect-http") {
  // Imported here, not above: the node:http edge loads no Effect at all.
  const { serveThroughEffectHttp } = await import("./bareEffectEdge.ts")
  serveThroughEffectHttp({ port, take, signBody, close: () => db.close() })
} else if (edge === "node-http") {
  const server = createServer((request, response) => {
    if (request.url === "/health") return void response.writeHead(200).end("ok")
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () =>
      take(Buffer.concat(chunks), request.headers.sign as string | undefined, (envelope) => answer(response, envelope)),
    )
  })
  server.keepAliveTimeout = 60_000
  server.listen(port, "127.0.0.1")
  process.on("SIGINT", () => {
    server.close(() => {
      db.close()
      process.exit(0)
    })
    server.closeAllConnections()
  })
} else throw new Error(`bareServer: BARE_EDGE must be node-http or effect-http, not ${edge}`)
