/**
 * `npm run bench -- sealing`: what sealing personal data and chaining the
 * log cost (issue 15; goal: under 10% on appends), in one run, the two
 * sides' runs alternating. Sealing: the same SQLite store, file for file,
 * with and without the sealed store above it, in sequential appends, 64
 * concurrent writers and readAll of a log written each way; and the
 * gateway's create order in this process over a sealed and a plain store
 * (sealingGateway.ts). Chaining: the SQLite store always chains, in its
 * writer's transaction, and cannot be built without its chain short of
 * changing its append path; so the chain's own work, `chainHashOf` over
 * the same events in a stream's order, is timed beside the appends, and
 * the appends without it are estimated from the two rates.
 *
 * Every event is a bank card transfer's placement with its card fields
 * (number digest, last 4, expiry, holder names), the event the sealing
 * plan seals most of. Each writer pays with one card, so its data key is
 * made once and then cached (sealer.ts); one more line pays with a new
 * card on every append: a new data key, wrapped and added to the key
 * table, each time.
 */

import { createHash, randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  type ChainedFields,
  chainGenesis,
  chainHashOf,
  type EventStoreShape,
  keyRingOfMasterKeys,
  makeSealerOn,
  type NewEvent,
  newMasterKey,
  sealedEventStore,
} from "@mizan/eventsourcing"
import { mizanSealingPlan } from "@mizan/order-views"
import { makeSqliteEventStore, sqliteStoreDefaults } from "@mizan/store-sqlite"
import { Effect, Exit, Scope } from "effect"
import {
  type Comparison,
  compare,
  describeMachine,
  formatTable,
  goalsMet,
  type RunCounts,
  type Workload,
} from "./harness.ts"
import { readAllInPages } from "./readPages.ts"
import { gatewayCreates, startInProcessGateway } from "./sealingGateway.ts"

const appendsSequential = 1_000
const writersConcurrent = 64
const appendsPerWriter = 50
const eventsConcurrent = writersConcurrent * appendsPerWriter
const eventsInLog = 20_000
const pageSizeEvents = 1_000
const counts: RunCounts = { warmupRuns: 2, measuredRuns: 7 }
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
}

/** A new SQLite file; sealed or plain. */
const open = async (sealed: boolean, dir = mkdtempSync(join(tmpdir(), "mizan-bench-sealing-"))): Promise<Open> => {
  const scope = await Effect.runPromise(Scope.make())
  const store = await Effect.runPromise(
    Scope.provide(scope)(
      Effect.gen(function* () {
        const sqlite = yield* makeSqliteEventStore(join(dir, "events.db"))
        if (!sealed) return sqlite as EventStoreShape
        const sealer = yield* makeSealerOn(mizanSealingPlan, sqlite.subjectKeys, keyRing)
        return sealedEventStore(sqlite, sealer)
      }),
    ),
  )
  return { dir, store, scope }
}

const close = async (opened: Open, remove = true) => {
  await Effect.runPromise(Scope.close(opened.scope, Exit.void))
  if (remove) rmSync(opened.dir, { recursive: true, force: true })
}

const side = (sealed: boolean) => (sealed ? "sealed" : "plain")

const sequentialAppends = (sealed: boolean): Workload<Open> => ({
  name: `${side(sealed)}: sequential appends of 1 event, one card`,
  operationsPerRun: appendsSequential,
  setup: () => open(sealed),
  run: ({ store }) =>
    Effect.runPromise(
      Effect.forEach(
        Array.from({ length: appendsSequential }, (_, i) => i),
        (i) => store.append("sequential", [cardTransferPlaced(i, 0)], i === 0 ? "no_stream" : i),
      ),
    ),
  teardown: (opened) => close(opened),
})

/** 64 writers, each appending to its own stream; `newCardEachAppend` gives every event a card (a data key) of its own. */
const concurrentAppends = (sealed: boolean, newCardEachAppend: boolean): Workload<Open> => ({
  name: `${side(sealed)}: ${writersConcurrent} concurrent writers, ${newCardEachAppend ? "a new card each append" : "one card each"}`,
  operationsPerRun: eventsConcurrent,
  setup: () => open(sealed),
  run: ({ store }) =>
    Effect.runPromise(
      Effect.forEach(
        Array.from({ length: writersConcurrent }, (_, w) => w),
        (w) =>
          Effect.forEach(
            Array.from({ length: appendsPerWriter }, (_, i) => i),
            (i) =>
              store.append(
                `bankCardTransfer/M1/w${w}`,
                [cardTransferPlaced(w * appendsPerWriter + i, newCardEachAppend ? w * appendsPerWriter + i : w)],
                i === 0 ? "no_stream" : i,
              ),
          ),
        { concurrency: "unbounded", discard: true },
      ),
    ),
  teardown: (opened) => close(opened),
})

/**
 * The chain's own work for the sequential appends: each event's chain hash
 * over the one before, from the fields the SQLite writer hashes (the
 * event as a read returns it, with its stream, version and recording
 * time), made ready before the clock starts.
 */
const chainHashing: Workload<ReadonlyArray<ChainedFields>> = {
  name: "chain hashing alone: chainHashOf of the same events",
  operationsPerRun: appendsSequential,
  setup: () =>
    Array.from({ length: appendsSequential }, (_, i) => {
      const event = cardTransferPlaced(i, 0)
      return {
        id: randomUUID(),
        streamId: "sequential",
        streamVersion: i + 1,
        type: event.type,
        schemaVersion: event.schemaVersion,
        data: event.data,
        metadata: { recordedAt: 1_763_769_600_000 + i },
      }
    }),
  run: (events) => {
    let previous = chainGenesis
    for (const event of events) previous = chainHashOf(previous, event)
    return previous
  },
}

/** A log of `eventsInLog` card transfers over 1,000 cards, written once, then read whole by each run. */
const readAll = (log: Open, sealed: boolean): Workload => ({
  name: `${side(sealed)}: readAll in pages of ${pageSizeEvents}`,
  operationsPerRun: eventsInLog,
  run: () => readAllInPages(log.store, pageSizeEvents, eventsInLog),
})

const writtenLog = async (sealed: boolean): Promise<Open> => {
  const opened = await open(sealed)
  await Effect.runPromise(
    Effect.forEach(
      Array.from({ length: eventsInLog / 100 }, (_, batch) => batch),
      (batch) =>
        opened.store.append(
          `bankCardTransfer/M1/log-${batch}`,
          Array.from({ length: 100 }, (_, i) => cardTransferPlaced(batch * 100 + i, (batch * 100 + i) % 1_000)),
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
// The goal: sealed appends at 90% of plain ones or better (issue 15).
const comparisons: Array<Comparison> = [
  await compare(sequentialAppends(true), sequentialAppends(false), { ...unit, goalRatio: 0.9 }),
  await compare(concurrentAppends(true, false), concurrentAppends(false, false), { ...unit, goalRatio: 0.9 }),
  await compare(concurrentAppends(true, true), concurrentAppends(false, true), unit),
]
const sealedLog = await writtenLog(true)
const plainLog = await writtenLog(false)
comparisons.push(await compare(readAll(sealedLog, true), readAll(plainLog, false), unit))
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

// Beside sequential appends, which wait for their sync, and beside 64 writers, where the thread is the wall.
const chains = [
  await compare(chainHashing, sequentialAppends(false), unit),
  await compare(chainHashing, concurrentAppends(false, false), unit),
]
comparisons.push(...chains)

console.log(formatTable(comparisons))
// An append without its chain would skip the hashing and nothing else: its time is the append's less the hash's.
const chainShares = chains.map((chain) => chain.baseline.operationsPerSecond / chain.measured.operationsPerSecond)
const chainShare = Math.max(...chainShares)
for (const [i, share] of chainShares.entries())
  console.log(
    `\nchaining: ${(share * 100).toFixed(1)}% of ${i === 0 ? "a sequential append's" : "an event's under 64 writers"} time is its chain hash, so chained appends run at about ${(1 - share).toFixed(2)} of unchained ones (goal >= 0.90 ${1 - share >= 0.9 ? "met" : "MISSED"}).`,
  )
console.log(
  `\n${((performance.now() - startedMs) / 1_000).toFixed(1)} s; medians of ${counts.measuredRuns} runs after ${counts.warmupRuns} warm-up runs, the two sides' runs alternating.`,
)
console.log(
  goalsMet(comparisons) && chainShare <= 0.1
    ? "Every goal met."
    : "Some goals MISSED: see tools/bench/README.md for why.",
)
