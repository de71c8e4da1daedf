/**
 * `npm run bench -- sealing`: what sealing personal data and chaining the
 * log cost (goal: under 10% on appends), in one run, the two
 * sides' runs alternating. Sealing: the same SQLite store, file for file,
 * with and without the sealed store above it, in sequential appends, 64
 * concurrent writers and readAll of a log written each way (and of a log
 * with a card each event, through a sealer made afresh each run so that no
 * key is cached, as in the audit's replay of a sealed store); and the
 * gateway's create order in this process over a sealed and a plain store
 * (sealingGateway.ts). Chaining: the plain SQLite store (chained, as the
 * product always is) against the same store without its chain, in
 * sequential appends and 64 concurrent writers. The store has no setting
 * that turns its chain off, and must not have one (tamper evidence is not
 * optional); so the unchained side is built through the store's internal
 * constructor (`openSqliteEventStore`, which the package index does not
 * export), reached here by its source file, with a `Chaining` that stores
 * JSON.stringify's text and computes no hash. That seam exists so that the
 * chain's cost is measured, not estimated from timing `chainHashOf` beside
 * the appends.
 *
 * Every event is a bank card transfer's placement with its card fields
 * (number digest, last 4, expiry, holder names), the event the sealing
 * plan seals most of. Each writer pays with one card, whose data key is
 * made before the run (sealer.ts caches it); one more line pays with a new
 * card on every append: a new data key, wrapped and added to the key
 * table, each time.
 *
 * Where the 64 writers' gap goes, in the same run: beside sealed and plain,
 * the plain store with one AES-256-GCM box an event and nothing else
 * (sealing's floor on this thread; the same box through WebCrypto's async
 * AES-GCM, in the thread pool; and made in a worker thread, a turn's boxes
 * a message), and the plain store storing events
 * sealed before the run (the larger rows' own cost), each with its CPU
 * per event.
 */

import { createHash, randomBytes, webcrypto } from "node:crypto"
import {
  cipherKeyOf,
  type EventStoreShape,
  keyRingOfMasterKeys,
  makeSealerOn,
  type NewEvent,
  newDataKey,
  newMasterKey,
  type Sealer,
  type SubjectKeysShape,
  sealBytes,
  sealedEventStore,
} from "@mizan/eventsourcing"
import { mizanSealingPlan } from "@mizan/order-views"
import { makeSqliteEventStore, sqliteStoreDefaults } from "@mizan/store-sqlite"
import { Effect, type Scope } from "effect"
// The sealer's box layout, by its source file: the floor lines bind their boxes to the sealer's own bytes.
import { sealedBoxAssociatedData } from "../../../libs/eventsourcing/src/sealing/associatedData.ts"
// The store's internals, by their source files: the unchained side of the chaining lines (above) and nothing else.
import { threadPoolLogSync } from "../../../libs/store-sqlite/src/logSync.ts"
import type { Chaining } from "../../../libs/store-sqlite/src/rows.ts"
import { openSqliteEventStore } from "../../../libs/store-sqlite/src/store.ts"
import {
  type Comparison,
  compare,
  comparisonOf,
  describeMachine,
  formatTable,
  goalsMet,
  measureTogether,
  median,
  type RunCounts,
  type Workload,
} from "./harness.ts"
import { readAllInPages } from "./readPages.ts"
import { gatewayCreates, startInProcessGateway } from "./sealingGateway.ts"
import { type SealingWorker, startSealingWorker } from "./sealingWorker.ts"
import {
  closeScope,
  openScoped,
  removeFile,
  tempFile,
  writers,
  writersAppending,
  writersConcurrent,
} from "./storeSetUp.ts"

const appendsSequential = 1_000
const appendsPerWriter = 50
const eventsConcurrent = writersConcurrent * appendsPerWriter
const eventsInLog = 20_000
const pageSizeEvents = 1_000
const counts: RunCounts = { warmupRuns: 2, measuredRuns: 7 }
/** A run of 64 writers is short (a fraction of a second): the chain's line there takes more of them, for a steadier median. */
const chainConcurrentCounts: RunCounts = { warmupRuns: 3, measuredRuns: 15 }
const createsPerRun = 500
const createsInFlight = 32
const gatewayCounts: RunCounts = { warmupRuns: 1, measuredRuns: 5 }
const keyRing = keyRingOfMasterKeys([newMasterKey()])

const digest = (text: string) => createHash("sha256").update(text).digest("hex")

/** A card transfer's placement, about 700 bytes of JSON, paid with card `card`. */
const cardTransferPlaced = (n: number, card: number): NewEvent => ({
  type: "BankCardTransferPlaced",
  schemaVersion: 1,
  data: {
    _tag: "BankCardTransferPlaced",
    merchantId: "M000000042",
    orderNo: `2026112100000${n}`,
    requestTime: 1_763_769_600_000 + n,
    createdTime: 1_763_769_600_000 + n,
    product: "TRANSFER_TO_BANK_CARD",
    merchantOrderNo: `order-${n}`,
    accountHolderType: "INDIVIDUAL",
    firstName: digest(`first ${card}`),
    lastName: digest(`last ${card}`),
    amount: 20_000 + n,
    memo: "Refund of deposit",
    notifyUrl: "https://merchant.example/notify",
    expiryYear: "2030",
    expiryMonth: "06",
    cardNumber: digest(`4111 ${card}`),
    cardLast4: "1111",
    payerFeeAmount: 200,
    feePlan: { ratePermille: 10, minFils: 0, maxFils: 1_000_000 },
    payerFeeMemberId: "M1-MID",
    paidTime: 1_763_769_600_000 + n,
  },
})

interface Open {
  readonly dir: string
  readonly store: EventStoreShape
  readonly scope: Scope.Closeable
  /** The sealed side's sealer (over the same key table): what seals the events of `sealedFormAppends` in its setup. */
  readonly sealer?: Sealer
  /** The SQLite store itself, under the sealed store on the sealed side. */
  readonly bare: EventStoreShape
  /** The SQLite store's key table: where a sealer made afresh (keys not cached) finds the data keys. */
  readonly keys?: SubjectKeysShape
}

/**
 * The store's three forms here: sealed (the product's), plain (the bare
 * SQLite store, chained as it always is) and unchained (the bare store
 * without its chain, which only this benchmark builds).
 */
type Side = "sealed" | "plain" | "unchained"

/** No chain: data stored as JSON.stringify writes it (no canonical form needed), no hash computed, an empty one stored. */
const unchained: Chaining = { encode: (value) => JSON.stringify(value), hash: () => "" }

/** A new SQLite file with the store of `side` on it. */
const open = async (side: Side): Promise<Open> => {
  const { dir, path } = tempFile("mizan-bench-sealing-")
  const { scope, value: stores } = await openScoped(
    Effect.gen(function* () {
      if (side === "unchained") {
        const bare = (yield* openSqliteEventStore(path, {}, threadPoolLogSync, unchained)) as EventStoreShape
        return { store: bare, bare }
      }
      const sqlite = yield* makeSqliteEventStore(path)
      if (side === "plain") return { store: sqlite as EventStoreShape, bare: sqlite }
      const sealer = yield* makeSealerOn(mizanSealingPlan, sqlite.subjectKeys, keyRing)
      return { store: sealedEventStore(sqlite, sealer), sealer, bare: sqlite, keys: sqlite.subjectKeys }
    }),
  )
  return { dir, scope, ...stores }
}

const close = async (opened: Open) => {
  await closeScope(opened.scope)
  removeFile(opened)
}

const sequentialAppends = (side: Side): Workload<Open> => ({
  name: `${side}: sequential appends of 1 event, one card`,
  operationsPerRun: appendsSequential,
  setup: () => open(side),
  run: ({ store }) =>
    Effect.runPromise(
      Effect.forEach(
        Array.from({ length: appendsSequential }, (_, i) => i),
        (i) => store.append("sequential", [cardTransferPlaced(i, 0)], i === 0 ? "no_stream" : i),
      ),
    ),
  teardown: (opened) => close(opened),
})

const writerStream = (w: number) => `bankCardTransfer/M1/w${w}`

/** Writer `w`'s `i`th event; `newCardEachAppend` gives every event a card (a data key) of its own. */
const writerEvent = (w: number, i: number, newCardEachAppend: boolean) =>
  cardTransferPlaced(w * appendsPerWriter + i, newCardEachAppend ? w * appendsPerWriter + i : w)

/**
 * Each writer's card in the store's key table and the sealer's cache before
 * the run (not timed), so that a run of "one card each" measures a returning
 * card's appends, as it says; a card's first append, which makes its data
 * key, is the "new card each append" line's.
 */
const withWritersKeys = async (opened: Open): Promise<Open> => {
  if (opened.sealer !== undefined)
    await Effect.runPromise(
      Effect.forEach(
        writers,
        (w) => opened.store.append(`bankCardTransfer/M1/keys-${w}`, [writerEvent(w, 0, false)], "no_stream"),
        { concurrency: "unbounded", discard: true },
      ),
    )
  return opened
}

/** 64 writers, each appending to its own stream; `newCardEachAppend` gives every event a card (a data key) of its own. */
const concurrentAppends = (side: Side, newCardEachAppend: boolean): Workload<Open> => ({
  name: `${side}: ${writersConcurrent} concurrent writers, ${newCardEachAppend ? "a new card each append" : "one card each"}`,
  operationsPerRun: eventsConcurrent,
  setup: async () => (newCardEachAppend ? open(side) : withWritersKeys(await open(side))),
  run: ({ store }) =>
    writersAppending(appendsPerWriter, (w, i) =>
      store.append(writerStream(w), [writerEvent(w, i, newCardEachAppend)], i === 0 ? "no_stream" : i),
    ),
  teardown: (opened) => close(opened),
})

/** The card fields of the sealing plan (card-transfer's sealingPlan.ts), as the sealer boxes them. */
const cardFields = ["cardNumber", "cardLast4", "expiryYear", "expiryMonth", "firstName", "lastName"] as const

/** A data key's id as long as the sealer's (a UUID), for the floor's associated data. */
const keyIdStandIn = "00000000-0000-7000-8000-000000000000"

/**
 * Writer `w`'s `i`th event and its stream, and what the floor lines box of
 * it: its card fields' JSON, and the associated data the sealer binds such a
 * box to (its own layout, the subject and key id of the same length as the
 * sealer's). Made in the timed run, as the sealer makes them on each append.
 */
const floorBoxOf = (w: number, i: number) => {
  const event = writerEvent(w, i, false)
  const data = event.data as Record<string, unknown>
  const stream = writerStream(w)
  const clear = Object.fromEntries(cardFields.map((field) => [field, data[field]]))
  return {
    event,
    stream,
    clearBytes: Buffer.from(JSON.stringify(clear), "utf8"),
    associated: sealedBoxAssociatedData(stream, {
      subject: `card:${data.cardNumber}`,
      key: keyIdStandIn,
      fields: cardFields,
    }),
  }
}

/**
 * The floor of sealing on this thread: the plain store's 64 writers, each
 * append first sealing its event's card fields in one AES-256-GCM box under
 * a cached key object, as the sealer does (their JSON, associated data of
 * the same length), then storing the event as it is. No plan walked, no
 * sealed form stored: what one `node:crypto` box an event costs, which no
 * change to the sealer can take away.
 */
const cipherFloorAppends = (): Workload<Open> => {
  const key = cipherKeyOf(newDataKey())
  return {
    name: `plain + one AES-256-GCM box an event: ${writersConcurrent} concurrent writers, one card each`,
    operationsPerRun: eventsConcurrent,
    setup: () => open("plain"),
    run: ({ store }) =>
      writersAppending(appendsPerWriter, (w, i) => {
        const { event, stream, clearBytes, associated } = floorBoxOf(w, i)
        sealBytes(key, clearBytes, associated)
        return store.append(stream, [event], i === 0 ? "no_stream" : i)
      }),
    teardown: (opened) => close(opened),
  }
}

/**
 * The floor again, the box made by WebCrypto (`crypto.subtle.encrypt`,
 * AES-256-GCM, the same fields and associated data, the box in Base64 as
 * the sealer stores it): asynchronous, run in the thread pool, so that the
 * event loop only hands it over and takes it back. Measured to see whether
 * sealing off the thread would win at 64 writers; the sealer keeps
 * node:crypto's synchronous box.
 */
const webCryptoFloorAppends = (): Workload<Open & { readonly key: webcrypto.CryptoKey }> => ({
  name: `plain + one WebCrypto AES-256-GCM box an event: ${writersConcurrent} concurrent writers, one card each`,
  operationsPerRun: eventsConcurrent,
  setup: async () => {
    const key = await webcrypto.subtle.importKey("raw", newDataKey(), "AES-GCM", false, ["encrypt"])
    return { ...(await open("plain")), key }
  },
  run: ({ store, key }) =>
    writersAppending(appendsPerWriter, (w, i) => {
      const { event, stream, clearBytes, associated } = floorBoxOf(w, i)
      const iv = randomBytes(12)
      return Effect.flatMap(
        Effect.promise(() =>
          webcrypto.subtle.encrypt(
            { name: "AES-GCM", iv, additionalData: Buffer.from(associated, "utf8") },
            key,
            clearBytes,
          ),
        ),
        (sealed) => {
          // The box as the sealer would store it (nonce, ciphertext, tag, in Base64): its cost is the floor's too.
          Buffer.concat([iv, Buffer.from(sealed)]).toString("base64")
          return store.append(stream, [event], i === 0 ? "no_stream" : i)
        },
      )
    }),
  teardown: (opened) => close(opened),
})

/**
 * The floor a third way: the same box (`sealBytes`, node:crypto) made in a
 * worker thread (sealingWorker.ts), the boxes a turn of the event loop asks
 * for sent over in one message and answered in one. Measured to see whether
 * sealing off the event loop, on the machine's second core, wins back the
 * floor's cost at 64 writers; the sealer keeps its synchronous box.
 */
const workerFloorAppends = (): Workload<Open & { readonly sealing: SealingWorker }> => ({
  name: `plain + one box an event made in a worker thread: ${writersConcurrent} concurrent writers, one card each`,
  operationsPerRun: eventsConcurrent,
  setup: async () => ({ ...(await open("plain")), sealing: await startSealingWorker(newDataKey()) }),
  run: ({ store, sealing }) =>
    writersAppending(appendsPerWriter, (w, i) => {
      const { event, stream, clearBytes, associated } = floorBoxOf(w, i)
      return Effect.flatMap(
        Effect.promise(() => sealing.seal(clearBytes, associated)),
        () => store.append(stream, [event], i === 0 ? "no_stream" : i),
      )
    }),
  teardown: async (opened) => {
    await opened.sealing.close()
    await close(opened)
  },
})

/**
 * The sealed form's own cost: the plain store's 64 writers appending events
 * sealed before the run (in its setup, not timed, by a sealer over the same
 * key table), so that a run stores the sealed rows (about 1.1 KB against
 * 0.75 KB) and does none of the sealing.
 */
const sealedFormAppends = (): Workload<Open & { readonly sealed: ReadonlyArray<ReadonlyArray<NewEvent>> }> => ({
  name: `plain storing events sealed before the run: ${writersConcurrent} concurrent writers, one card each`,
  operationsPerRun: eventsConcurrent,
  setup: async () => {
    const opened = await open("sealed")
    const sealer = opened.sealer!
    const sealed = await Effect.runPromise(
      Effect.forEach(writers, (w) =>
        Effect.forEach(
          Array.from({ length: appendsPerWriter }, (_, i) => writerEvent(w, i, false)),
          (event) =>
            Effect.map(sealer.seal(writerStream(w), event.type, event.data), (data): NewEvent => ({ ...event, data })),
        ),
      ),
    )
    return { ...opened, sealed }
  },
  // The bare store under the sealed one: it stores what it is given.
  run: ({ bare, sealed }) =>
    writersAppending(appendsPerWriter, (w, i) =>
      bare.append(writerStream(w), [sealed[w]![i]!], i === 0 ? "no_stream" : i),
    ),
  teardown: (opened) => close(opened),
})

/**
 * `workload`, noting the process's CPU time per operation of each run
 * (every thread: the event loop, and the pool's syncs, which wait more than
 * they work). Beside a rate that a loaded machine moves by a third from
 * run to run, the CPU an event costs holds steadier.
 */
const withCpuPerOperation = <Context>(workload: Workload<Context>) => {
  const microseconds: Array<number> = []
  const measured: Workload<Context> = {
    ...workload,
    run: async (context, round) => {
      const before = process.cpuUsage()
      await workload.run(context, round)
      const used = process.cpuUsage(before)
      if (round.measured) microseconds.push((used.user + used.system) / workload.operationsPerRun)
    },
  }
  return { workload: measured, medianMicroseconds: () => median(microseconds) }
}

/** A log of `eventsInLog` card transfers over 1,000 cards, written once, then read whole by each run. */
const readAll = (log: Open, side: Side): Workload => ({
  name: `${side}: readAll in pages of ${pageSizeEvents}`,
  operationsPerRun: eventsInLog,
  run: () => readAllInPages(log.store, pageSizeEvents, eventsInLog),
})

/**
 * readAll of a log whose every event has a card (a data key) of its own,
 * through a sealer made afresh each run: no key cached, as when the audit
 * replays a sealed store, so every page loads and unwraps the keys it names.
 */
const readAllColdKeys = (log: Open): Workload => ({
  name: `sealed: readAll in pages of ${pageSizeEvents}, a card each event, no key cached`,
  operationsPerRun: eventsInLog,
  run: async () => {
    const sealer = await Effect.runPromise(makeSealerOn(mizanSealingPlan, log.keys!, keyRing))
    await readAllInPages(sealedEventStore(log.bare, sealer), pageSizeEvents, eventsInLog)
  },
})

/** A log of `eventsInLog` card transfers written through `side`'s store: 1,000 cards, or one each event. */
const writtenLog = async (side: Side, cardEachEvent = false): Promise<Open> => {
  const opened = await open(side)
  await Effect.runPromise(
    Effect.forEach(
      Array.from({ length: eventsInLog / 100 }, (_, batch) => batch),
      (batch) =>
        opened.store.append(
          `bankCardTransfer/M1/log-${batch}`,
          Array.from({ length: 100 }, (_, i) => {
            const n = batch * 100 + i
            return cardTransferPlaced(n, cardEachEvent ? n : n % 1_000)
          }),
          "no_stream",
        ),
      { concurrency: 16, discard: true },
    ),
  )
  return opened
}

const startedMs = performance.now()
console.log(
  `Sealing benchmark (SQLite at its default, synchronous=${sqliteStoreDefaults.synchronous}) on ${describeMachine()}\n`,
)
const unit = { unit: "events", counts }
// The goal: sealed appends at 90% of plain ones or better, and chained at 90% of unchained ones.
const goal = { ...unit, goalRatio: 0.9 }
const comparisons: Array<Comparison> = [await compare(sequentialAppends("sealed"), sequentialAppends("plain"), goal)]
// The 64 writers sealed and plain (chained, as the store always is), and beside them what sealing cannot go below
// (one box an event), what its larger rows alone cost, and the plain store unchained: six workloads, their runs
// alternating, the plain runs serving every comparison.
const writersLines = [
  concurrentAppends("sealed", false),
  cipherFloorAppends(),
  webCryptoFloorAppends(),
  workerFloorAppends(),
  sealedFormAppends(),
  concurrentAppends("plain", false),
  concurrentAppends("unchained", false),
].map((workload) => withCpuPerOperation(workload as Workload<unknown>))
const [
  sealedWriters,
  floorWriters,
  webCryptoFloorWriters,
  workerFloorWriters,
  formWriters,
  plainWriters,
  unchainedWriters,
] = await measureTogether(
  writersLines.map((line) => line.workload),
  chainConcurrentCounts,
)
comparisons.push(
  comparisonOf(sealedWriters, plainWriters, unit.unit, goal.goalRatio),
  comparisonOf(floorWriters, plainWriters, unit.unit),
  comparisonOf(webCryptoFloorWriters, plainWriters, unit.unit),
  comparisonOf(workerFloorWriters, plainWriters, unit.unit),
  comparisonOf(formWriters, plainWriters, unit.unit),
  await compare(concurrentAppends("sealed", true), concurrentAppends("plain", true), unit),
  await compare(sequentialAppends("plain"), sequentialAppends("unchained"), goal),
  comparisonOf(plainWriters, unchainedWriters, unit.unit, goal.goalRatio),
)
const sealedLog = await writtenLog("sealed")
const plainLog = await writtenLog("plain")
comparisons.push(await compare(readAll(sealedLog, "sealed"), readAll(plainLog, "plain"), unit))
const cardEachEventLog = await writtenLog("sealed", true)
comparisons.push(await compare(readAllColdKeys(cardEachEventLog), readAll(plainLog, "plain"), unit))
await close(cardEachEventLog)
await close(sealedLog)
await close(plainLog)

const sealedGateway = startInProcessGateway(true)
const plainGateway = startInProcessGateway(false)
try {
  for (const payer of ["none", "oneEid", "newEmail"] as const)
    comparisons.push(
      await compare(
        gatewayCreates(sealedGateway, payer, createsPerRun, createsInFlight),
        gatewayCreates(plainGateway, payer, createsPerRun, createsInFlight),
        { unit: "requests", counts: gatewayCounts },
      ),
    )
} finally {
  await sealedGateway.close()
  await plainGateway.close()
}

console.log(formatTable(comparisons))
const [sealedCpu, floorCpu, webCryptoFloorCpu, workerFloorCpu, formCpu, plainCpu, unchainedCpu] = writersLines.map(
  (line) => line.medianMicroseconds(),
)
console.log(
  `\n64 writers, one card each, CPU per event (the process, medians): sealed ${sealedCpu!.toFixed(1)} µs, plain ${plainCpu!.toFixed(1)} µs (ratio ${(plainCpu! / sealedCpu!).toFixed(2)}); plain + one box ${floorCpu!.toFixed(1)} µs (${(plainCpu! / floorCpu!).toFixed(2)}); plain + one WebCrypto box ${webCryptoFloorCpu!.toFixed(1)} µs (${(plainCpu! / webCryptoFloorCpu!).toFixed(2)}, the thread pool's CPU included); plain + one box made in a worker ${workerFloorCpu!.toFixed(1)} µs (${(plainCpu! / workerFloorCpu!).toFixed(2)}, the worker's CPU included); plain storing sealed rows ${formCpu!.toFixed(1)} µs (${(plainCpu! / formCpu!).toFixed(2)}).`,
)
console.log(
  `\n64 writers, CPU per event (the process, medians): chained ${plainCpu!.toFixed(1)} µs, unchained ${unchainedCpu!.toFixed(1)} µs, ratio ${(unchainedCpu! / plainCpu!).toFixed(2)}.`,
)
console.log(
  `\n${((performance.now() - startedMs) / 1_000).toFixed(1)} s; medians of ${counts.measuredRuns} runs after ${counts.warmupRuns} warm-up runs (the 64 writers' one-card and chain lines: ${chainConcurrentCounts.measuredRuns} after ${chainConcurrentCounts.warmupRuns}), the two sides' runs alternating.`,
)
console.log(goalsMet(comparisons) ? "Every goal met." : "Some goals MISSED: see tools/bench/README.md for why.")
