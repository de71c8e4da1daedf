/**
 * The gateway benchmark's third ceiling: the bare server
 * (bareServer.ts) doing everything a create costs the gateway that a user
 * relies on, with the layers taken away. `BARE_WORK=gateway` chooses it.
 * Each step is the library's own function, called as a plain function, one
 * after the other:
 *
 * 1. the request's signature checked in the thread pool (`verifyOffLoop`);
 * 2. the body parsed strictly (`parseJson`), the envelope and bizContent
 *    decoded with the wire's Effect Schemas (`RequestEnvelope`, the
 *    operation's request schema, every error reported), the URLs checked
 *    (`merchantUrlRefusal`);
 * 3. the acquiring order decided on the empty state (`AcquiringOrder.decide`)
 *    with a new orderNo, its events encoded by the aggregate's codec beside
 *    the orderNo's index event (`orderIndexPart`), the order's personal
 *    fields sealed (`Sealer.seal` on the acquiring sealing plan);
 * 4. both streams written in the next group commit as the SQLite store
 *    writes them: each event's JSON in the store's encoding and chain hash
 *    (`encodeEvents`, `chainedOfEncoded`), the new streams decided on a
 *    unique index of stream and version, the commit made durable before any
 *    answer;
 * 5. the answer built as the gateway builds it: the state folded
 *    (`AcquiringOrder.evolve`), the wire view (`toWireAcquireOrder`) with
 *    its pay token (AES-256-GCM, `payTokenFor`), encoded by the
 *    operation's response schema (`encodeWire`); the edge then writes and
 *    signs it in the thread pool.
 *
 * Not here: the access log, metrics and trace spans, the rate limiter and
 * the grant check (a few lookups), an idempotent repeat's read (every create
 * is new). What is left between this and the gateway is the gateway's
 * layering: the fibers, services and wrappers between these steps.
 */
import type { KeyObject } from "node:crypto"
import type { DatabaseSync } from "node:sqlite"
import { AcquiringOrder, sealingPlan } from "@mizan/acquiring"
import {
  chainGenesis,
  keyRingOfMasterKeys,
  makeMemorySubjectKeys,
  makeSealerOn,
  type NewEvent,
  type Sealer,
} from "@mizan/eventsourcing"
import type { Timestamp } from "@mizan/kernel"
import { withoutUndefined } from "@mizan/kernel"
import { newOrderNo, orderIndexPart } from "@mizan/order-flows"
import { toWireAcquireOrder } from "@mizan/order-views"
import {
  type DecodedRequestOf,
  encodeWire,
  failureResponse,
  merchantUrlRefusal,
  operations,
  type PrivateKey,
  type PublicKey,
  parseJson,
  RequestEnvelope,
  type ResponseEnvelope,
  signatureErrorResponse,
  successResponse,
  verifyOffLoop,
} from "@mizan/protocol"
import { Effect, Exit, Result, Schema } from "effect"
import { payTokenFor } from "../../../apps/gateway/src/payToken.ts"
import { newMasterKey } from "../../../libs/eventsourcing/src/sealing/masterKeys.ts"
import { chained, chainedOfEncoded, encodeEvents } from "../../../libs/store-sqlite/src/rows.ts"

const createOrder = operations["/acquire2/placeOrder"]
const merchantId = "BENCH"
const publicBaseUrl = "http://127.0.0.1"
const allErrors = { errors: "all" } as const

interface StreamWrite {
  readonly streamId: string
  readonly events: ReadonlyArray<NewEvent>
}

interface Pending extends DecidedCreate {
  readonly reply: (envelope: unknown) => void
}

/**
 * How the work's commits are grouped: what the answered function is given
 * goes into the next commit with whatever else is queued, which
 * `commitBatch` writes, answering how to acknowledge the batch
 * (bareServer.ts, `inGroupCommits`, gives it).
 */
export type GroupCommits = <P>(commitBatch: (batch: ReadonlyArray<P>) => () => void) => (pending: P) => void

export interface GatewayWorkOptions {
  readonly db: DatabaseSync
  readonly merchantPublicKey: KeyObject
  readonly servicePrivateKey: KeyObject
  /** The bare server's group commit (bareServer.ts). */
  readonly inGroupCommits: GroupCommits
}

/** A sealed event's data, which the memory key table gives at once (an Exit), or a failure the bench should not meet. */
const sealedNow = (sealing: Effect.Effect<unknown, unknown>): unknown => {
  if (Exit.isExit(sealing) && Exit.isSuccess(sealing)) return sealing.value
  throw new Error("bareGatewayWork: sealing waited on a key, which the memory key table never does")
}

/** A create as its request decoded it: the envelope's requestTime and the operation's request. */
export interface DecodedCreate {
  readonly requestTime: Timestamp
  readonly request: DecodedRequestOf<"/acquire2/placeOrder">
}

/** What a create decided: the order after it, and its events and index event as the store is given them. */
export interface DecidedCreate {
  readonly order: AcquiringOrder.Order
  readonly writes: ReadonlyArray<StreamWrite>
}

/** A stored event's columns, as the SQLite store writes them. */
export interface EventRow {
  readonly streamId: string
  readonly streamVersion: number
  readonly id: string
  readonly type: string
  readonly schemaVersion: number
  readonly dataJson: string
  readonly metadataJson: string | null
  readonly chainHash: string
}

/**
 * The gateway's work for a create, step by step, each a plain function over
 * the libraries' own: what bareServer.ts runs (`gatewayWork`) and what
 * `src/gatewaySteps.ts` times one by one. A refusal is its sentence.
 */
export const createSteps = (servicePrivateKey: PrivateKey) => {
  const sealer: Sealer = Effect.runSync(
    makeSealerOn(sealingPlan, makeMemorySubjectKeys(), keyRingOfMasterKeys([newMasterKey()])),
  )
  return {
    /** The body parsed strictly, the envelope and bizContent decoded by the wire's schemas, the URLs checked. */
    decode: (raw: Uint8Array): DecodedCreate | string => {
      const parsed = parseJson(raw)
      if (Result.isFailure(parsed)) return parsed.failure.message
      const envelope = Schema.decodeUnknownResult(RequestEnvelope)(parsed.success)
      if (Result.isFailure(envelope)) return "the envelope does not decode"
      const request = Schema.decodeUnknownResult(createOrder.request, allErrors)(envelope.success.bizContent)
      if (Result.isFailure(request)) return "bizContent does not decode"
      const notifyUrl = request.success.notifyUrl
      const urlProblem = notifyUrl === undefined ? undefined : merchantUrlRefusal(notifyUrl, "sandbox")
      return urlProblem ?? { requestTime: envelope.success.requestTime, request: request.success }
    },
    /** The order decided on the empty state with a new orderNo; its events encoded and sealed, its index event beside them. */
    decide: ({ requestTime, request }: DecodedCreate): DecidedCreate | string => {
      const now = Date.now() as Timestamp
      const { expiredTime: _, paySceneParams: __, sharingParamList: ___, ...named } = request
      const orderNo = newOrderNo(now, "acquiring")
      const streamId = AcquiringOrder.streamId(merchantId, request.merchantOrderNo)
      const command: AcquiringOrder.CreateOrder = {
        _tag: "CreateOrder",
        merchantId,
        now,
        orderNo,
        requestTime,
        request: withoutUndefined({ ...named }),
      }
      const events = AcquiringOrder.decide(command, AcquiringOrder.initialState)
      if (Result.isFailure(events)) return events.failure.detail
      const storedStreamId = sealer.storedStreamId(streamId)
      const orderEvents = events.success.map((event) => {
        const encoded = AcquiringOrder.aggregate.codec.encode(event)
        return sealer.seals(encoded.type)
          ? { ...encoded, data: sealedNow(sealer.seal(storedStreamId, encoded.type, encoded.data)) }
          : encoded
      })
      const index = orderIndexPart(merchantId, orderNo, "acquiring", streamId)
      return {
        order: events.success.reduce(AcquiringOrder.evolve, AcquiringOrder.initialState) as AcquiringOrder.Order,
        writes: [
          { streamId: storedStreamId, events: orderEvents },
          { streamId: index.streamId, events: index.events },
        ],
      }
    },
    /** The rows of new streams as the SQLite store writes them: each event's JSON and its chain hash after `previousChainHash`. */
    rows: (writes: ReadonlyArray<StreamWrite>, recordedAt: number, previousChainHash: string): Array<EventRow> => {
      const rows: Array<EventRow> = []
      let previous = previousChainHash
      for (const write of writes) {
        const encoded = encodeEvents(write.events, chained.encode)
        if (!Array.isArray(encoded)) throw new Error(`bareGatewayWork: ${String(encoded)}`)
        for (const [i, event] of encoded.entries()) {
          const { chainHash } = chainedOfEncoded(event, write.streamId, i + 1, recordedAt, previous, chained.hash)
          rows.push({ ...event, streamId: write.streamId, streamVersion: i + 1, chainHash })
          previous = chainHash
        }
      }
      return rows
    },
    /** The answer's envelope as the gateway builds it: the wire view with its pay token, encoded by the response schema (the edge writes it). */
    answer: (order: AcquiringOrder.Order): ResponseEnvelope => {
      const token = payTokenFor({ merchantId, merchantOrderNo: order.request.merchantOrderNo }, servicePrivateKey)
      const body = {
        acquireOrder: toWireAcquireOrder(order),
        interactionParams: { tokenUrl: `${publicBaseUrl}/pay/${token}` },
      }
      return successResponse(encodeWire(createOrder.response, body, "body"))
    },
  }
}

/** The take of bareServer.ts, doing the gateway's work: see the module's comment. */
export const gatewayWork = (options: GatewayWorkOptions) => {
  const { db } = options
  // The PEM files bareServer.ts parsed: an RSA key pair as parsePrivateKey and parsePublicKey would give it.
  const steps = createSteps(options.servicePrivateKey as PrivateKey)
  const merchantPublicKey = options.merchantPublicKey as PublicKey
  db.exec(`CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY,
    stream_id TEXT NOT NULL,
    stream_version INTEGER NOT NULL,
    event_id TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    data TEXT NOT NULL,
    metadata TEXT,
    recorded_at INTEGER NOT NULL,
    chain_hash TEXT NOT NULL,
    UNIQUE (stream_id, stream_version)
  )`)
  const begin = db.prepare("BEGIN IMMEDIATE")
  const commit = db.prepare("COMMIT")
  const insert = db.prepare(
    `INSERT INTO events (stream_id, stream_version, event_id, type, schema_version, data, metadata, recorded_at, chain_hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (stream_id, stream_version) DO NOTHING`,
  )
  let previousChainHash =
    (db.prepare("SELECT chain_hash FROM events ORDER BY position DESC LIMIT 1").get()?.chain_hash as string) ??
    chainGenesis

  const refuse = (reply: Pending["reply"], msg: string) => reply(failureResponse("INVALID_PARAMETER", msg))

  const submit = options.inGroupCommits<Pending>((batch) => {
    const recordedAt = Date.now()
    begin.run()
    for (const pending of batch)
      for (const row of steps.rows(pending.writes, recordedAt, previousChainHash)) {
        const { changes } = insert.run(
          row.streamId,
          row.streamVersion,
          row.id,
          row.type,
          row.schemaVersion,
          row.dataJson,
          row.metadataJson,
          recordedAt,
          row.chainHash,
        )
        // Every create of the benchmark is new: a stream already there would be a repeat, which it never sends.
        if (changes !== 1) throw new Error(`bareGatewayWork: ${row.streamId} was written before`)
        previousChainHash = row.chainHash
      }
    commit.run()
    return () => {
      for (const pending of batch) pending.reply(steps.answer(pending.order))
    }
  })

  return (raw: Buffer, signature: string | undefined, reply: Pending["reply"]) => {
    void verifyOffLoop(raw, signature, merchantPublicKey).then((valid) => {
      if (!valid) return reply(signatureErrorResponse())
      const decoded = steps.decode(raw)
      if (typeof decoded === "string") return refuse(reply, decoded)
      const decided = steps.decide(decoded)
      if (typeof decided === "string") return refuse(reply, decided)
      submit({ ...decided, reply })
    })
  }
}
