/**
 * `npm run bench -- postgres`: the PostgreSQL event store beside Emmett's
 * (`@event-driven-io/emmett-postgresql`, a widely used TypeScript event
 * store) on the same embedded server, in the same run. Goal: at
 * least as fast as Emmett on appends (one writer, and 16 at once) and on
 * reading the whole log. And the store's readAll beside a raw keyset select
 * of the same rows with `pg`, with 100,000 and 1,000,000 events in the log:
 * goal at least 0.90 at both sizes.
 *
 * Both stores get the same events, written to their own tables in one
 * database, on a server started durable (`durableServerSettings`). Each
 * append carries one event at the stream's expected version: a command
 * handler's append.
 */
import { dumbo, endAllPools } from "@event-driven-io/dumbo"
import { getPostgreSQLEventStore, readMessagesBatch } from "@event-driven-io/emmett-postgresql"
import { makePostgresEventStore } from "@mizan/store-postgres"
import { durableServerSettings, startEmbeddedPostgres } from "@mizan/store-postgres/testing"
import { Effect } from "effect"
import pg from "pg"
import { paymentData, paymentEvent } from "./events.ts"
import { type Comparison, compare, describeMachine, formatTable, goalsMet, type Workload } from "./harness.ts"
import { countAllInPages } from "./readPages.ts"
import { closeScope, openScoped } from "./storeSetUp.ts"

const appendsSequential = 300
const writersConcurrent = 16
const appendsPerWriter = 50
const streamsPerWriter = 10
const eventsInLog = 20_000
const eventsPerLogAppend = 10
const pageSizeEvents = 1_000
const poolSizeConnections = 10
/**
 * Appends wait for fsync, whose latency on a shared machine swings several
 * fold within seconds: many short runs, alternating with the baseline's,
 * and their median.
 */
const counts = { warmupRuns: 1, measuredRuns: 9 }

const emmettEvent = (n: number) => ({ type: "PaymentSucceeded", data: paymentData(n) })

/** Each run writes streams no run wrote before: `run-<n>-...`. */
let runNumber = 0
const nextRun = () => ++runNumber

/** The shape both stores are driven through: one append at a known version, and a page of the log. */
interface Driver {
  readonly name: string
  /** Appends one event to `streamId`, which holds `version` events. */
  readonly appendOne: (streamId: string, version: number, n: number) => Promise<void>
  /** Appends `count` events to a new stream (to fill the log for reading). */
  readonly appendNew: (streamId: string, count: number, n: number) => Promise<void>
  /** Reads the whole log in pages; answers how many events it read. */
  readonly readWholeLog: () => Promise<number>
  readonly close: () => Promise<void>
}

const mizanDriver = async (connectionString: string): Promise<Driver> => {
  const { scope, value: store } = await openScoped(makePostgresEventStore(connectionString, { poolSizeConnections }))
  return {
    name: "mizan",
    appendOne: async (streamId, version, n) => {
      await Effect.runPromise(store.append(streamId, [paymentEvent(n)], version === 0 ? "no_stream" : version))
    },
    appendNew: async (streamId, count, n) => {
      const events = Array.from({ length: count }, (_, i) => paymentEvent(n + i))
      await Effect.runPromise(store.append(streamId, events, "no_stream"))
    },
    readWholeLog: () => countAllInPages(store, pageSizeEvents),
    close: () => closeScope(scope),
  }
}

const emmettDriver = async (connectionString: string): Promise<Driver> => {
  const pool = dumbo({ connectionString, max: poolSizeConnections })
  const store = getPostgreSQLEventStore(connectionString, { connectionOptions: { dumbo: pool } })
  await store.schema.migrate()
  return {
    name: "emmett",
    appendOne: async (streamId, version, n) => {
      await store.appendToStream(streamId, [emmettEvent(n)], { expectedStreamVersion: BigInt(version) })
    },
    appendNew: async (streamId, count, n) => {
      const events = Array.from({ length: count }, (_, i) => emmettEvent(n + i))
      await store.appendToStream(streamId, events, { expectedStreamVersion: 0n })
    },
    // Emmett's own log reader (what its consumers page with), from the start of the log.
    readWholeLog: async () => {
      let after = 0n
      let read = 0
      while (true) {
        const { messages } = await readMessagesBatch(pool.execute, { after, batchSize: pageSizeEvents })
        const last = messages.at(-1)
        if (last === undefined) return read
        read += messages.length
        after = last.metadata.globalPosition
      }
    },
    close: () => store.close(),
  }
}

/** One writer, one event per append, each at the version its stream is at. */
const sequentialAppends = (driver: Driver): Workload<string> => ({
  name: `${driver.name}: ${appendsSequential} single appends, 1 writer`,
  operationsPerRun: appendsSequential,
  setup: () => `run-${nextRun()}`,
  run: async (prefix) => {
    const streams = 50
    for (let i = 0; i < appendsSequential; i++)
      await driver.appendOne(`${prefix}-${i % streams}`, Math.floor(i / streams), i)
  },
})

/** Writers that each append, one event at a time, to streams of their own. */
const concurrentAppends = (driver: Driver): Workload<string> => ({
  name: `${driver.name}: ${writersConcurrent} writers x ${appendsPerWriter} single appends`,
  operationsPerRun: writersConcurrent * appendsPerWriter,
  setup: () => `run-${nextRun()}`,
  run: (prefix) =>
    Promise.all(
      Array.from({ length: writersConcurrent }, async (_, w) => {
        for (let i = 0; i < appendsPerWriter; i++)
          await driver.appendOne(`${prefix}-w${w}-${i % streamsPerWriter}`, Math.floor(i / streamsPerWriter), i)
      }),
    ),
})

const readAll = (driver: Driver, expected: number): Workload<undefined> => ({
  name: `${driver.name}: read the whole log (${expected.toLocaleString("en-US")} events, pages of ${pageSizeEvents})`,
  operationsPerRun: expected,
  run: async () => {
    const read = await driver.readWholeLog()
    if (read !== expected) throw new Error(`${driver.name} read ${read} events, expected ${expected}`)
  },
})

/** Fills a fresh database with `eventsInLog` events through `driver`; answers the log's size. */
const fillLog = async (driver: Driver): Promise<number> => {
  for (let n = 0; n < eventsInLog; n += eventsPerLogAppend) await driver.appendNew(`log-${n}`, eventsPerLogAppend, n)
  return driver.readWholeLog()
}

/** Log sizes of the raw keyset comparison. */
const eventsInLargeLogs = [100_000, 1_000_000] as const
/** A run reads the whole log; at 1M events that is seconds, so fewer runs than the appends. */
const largeLogCounts = { warmupRuns: 1, measuredRuns: 7 }

/**
 * Fills the store's events table (schema `mizan`, created by opening the
 * store) with `events` rows over 10,000 streams, in one INSERT ... SELECT on
 * the server: the same payment data as `paymentData` (generated there),
 * positions 1..n, below any reader's visibility bound. The reads measured
 * are only the rows, whoever wrote them. ANALYZE then, as a bulk import
 * should (libs/store-postgres/README.md, The global order).
 */
const bulkFill = async (connectionString: string, events: number) => {
  const client = new pg.Client({ connectionString })
  await client.connect()
  try {
    await client.query(`
      INSERT INTO mizan.events (global_position, stream_id, stream_version, event_id, event_type, schema_version,
                                data, correlation_id, causation_id, recorded_at_ms, chain_hash)
      SELECT n, 'stream-' || (n % 10000), n / 10000 + 1, gen_random_uuid()::text, 'PaymentSucceeded', 1,
             json_build_object('merchantId', 'M000000042', 'merchantOrderNo', 'order-' || n,
                               'orderNo', '2026112100000' || n, 'amountFils', 12345 + n, 'currency', 'AED',
                               'payMethod', 'CARD',
                               'cardNoDigest', '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
                               'cardLast4', '4242', 'notifyUrl', 'https://merchant.example/notify',
                               'paidAt', 1763769600000 + n),
             NULL, NULL, 1767225600000 + n, repeat('0', 64)
      FROM generate_series(1, ${events}) AS n`)
    await client.query("ANALYZE mizan.events")
  } finally {
    await client.end()
  }
}

const asText = (value: string) => value
const asInteger = (value: string) => Number.parseInt(value, 10)

/**
 * The parsers the raw select needs for the columns read: int8 as text, int4
 * as a number, json parsed (the process-wide registry is Emmett's by now).
 * One function per type for the whole run, as the store's parsers are (not
 * a new closure per field and query).
 */
const rawTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number) =>
    oid === 114 ? JSON.parse : oid === 23 ? asInteger : asText) as pg.CustomTypesConfig["getTypeParser"],
}

/**
 * The ceiling of readAll: a raw keyset select of the same columns and rows
 * with `pg`, one connection, a prepared statement, rows as pg's objects with
 * their data parsed, nothing else (no visibility bound, no records built).
 */
const rawKeysetRead = (client: pg.Client, expected: number): Workload<undefined> => ({
  name: `raw pg: keyset SELECT (${expected.toLocaleString("en-US")} events, pages of ${pageSizeEvents})`,
  operationsPerRun: expected,
  run: async () => {
    let after = "0"
    let read = 0
    while (true) {
      const { rows } = await client.query<{ global_position: string }>({
        name: "raw-keyset",
        text: "SELECT global_position, stream_id, stream_version, event_id, event_type, schema_version, data, correlation_id, causation_id, recorded_at_ms, chain_hash FROM mizan.events WHERE global_position > $1::bigint ORDER BY global_position LIMIT $2::integer",
        values: [after, pageSizeEvents],
      })
      const last = rows.at(-1)
      if (last === undefined) break
      read += rows.length
      after = last.global_position
    }
    if (read !== expected) throw new Error(`the raw select read ${read} events, expected ${expected}`)
  },
})

/** The store's readAll against the raw keyset select, on a log of `events` events. */
const againstRawKeyset = async (server: { createDatabase: (name: string) => Promise<string> }, events: number) => {
  const url = await server.createDatabase(`keyset_${events}`)
  const mizan = await mizanDriver(url)
  await bulkFill(url, events)
  const client = new pg.Client({ connectionString: url, types: rawTypes })
  await client.connect()
  try {
    return await compare(readAll(mizan, events), rawKeysetRead(client, events), {
      unit: "events",
      goalRatio: 0.9,
      counts: largeLogCounts,
    })
  } finally {
    await client.end()
    await mizan.close()
  }
}

const main = async () => {
  const startedMs = performance.now()
  // What every figure assumes: a commit returns once its log is on disk, for Emmett, the store and raw pg alike.
  // Neither store sets synchronous_commit on its appends (the store's NOTIFY connection turns it off: a wake-up, not an event).
  const server = await startEmbeddedPostgres({ settings: { ...durableServerSettings, max_connections: "100" } })
  console.log(`embedded PostgreSQL started in ${Math.round(performance.now() - startedMs)} ms`)
  try {
    // The append workloads share one database; the read workload reads a database of its own per store.
    const appendUrl = await server.createDatabase("appends")
    const mizan = await mizanDriver(appendUrl)
    const emmett = await emmettDriver(appendUrl)
    const comparisons: Array<Comparison> = []
    const options = { unit: "events", goalRatio: 1, counts }
    comparisons.push(await compare(sequentialAppends(mizan), sequentialAppends(emmett), options))
    comparisons.push(await compare(concurrentAppends(mizan), concurrentAppends(emmett), options))
    await mizan.close()
    await emmett.close()

    const mizanLog = await mizanDriver(await server.createDatabase("mizan_log"))
    const emmettLog = await emmettDriver(await server.createDatabase("emmett_log"))
    const [mizanEvents, emmettEvents] = [await fillLog(mizanLog), await fillLog(emmettLog)]
    comparisons.push(await compare(readAll(mizanLog, mizanEvents), readAll(emmettLog, emmettEvents), options))
    await mizanLog.close()
    await emmettLog.close()
    for (const events of eventsInLargeLogs) comparisons.push(await againstRawKeyset(server, events))

    console.log(formatTable(comparisons))
    // The spread says how much of a ratio is the machine's noise.
    const spread = (rates: ReadonlyArray<number>) =>
      `${Math.round(Math.min(...rates)).toLocaleString("en-US")}..${Math.round(Math.max(...rates)).toLocaleString("en-US")}`
    for (const { measured, baseline } of comparisons)
      console.log(
        `runs of ${measured.name}: ${spread(measured.runsOperationsPerSecond)}/s; ${baseline.name.split(":")[0]}: ${spread(baseline.runsOperationsPerSecond)}/s`,
      )
    console.log(`\nmachine: ${describeMachine()}`)
    console.log(goalsMet(comparisons) ? "every goal met" : "a goal was MISSED")
  } finally {
    // After both Emmett stores are closed, a pool in dumbo's registry still holds idle connections, and
    // a server that stops under them crashes the process with an unhandled 'error' event.
    await endAllPools()
    await server.stop()
  }
}

await main()
