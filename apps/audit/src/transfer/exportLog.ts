/**
 * `export`: the whole log as NDJSON (ndjson.ts), so that a history can move
 * between stores (the embedded SQLite file to PostgreSQL and back) and be
 * audited offline. It never holds the log in memory: it writes one page at
 * a time. The key table's rows come first (data keys wrapped by the master
 * key, as stored: docs/architecture.md#sealed-personal-data), then the
 * events as stored, each signed head right after the event it ends at
 * (docs/architecture.md#a-tamper-evident-log), and the end line that counts
 * the events. `importLog.ts` reads it back.
 */
import { EventStore, logStart, type StoreError, SubjectKeys } from "@mizan/eventsourcing"
import { Effect, Option } from "effect"
import type { AuditError } from "../common/stores.ts"
import type { WriteChunk } from "../common/writeChunk.ts"
import { logPageSizeEventsDefault } from "../replay/replay.ts"
import { endLine, exportLine, headLine, keyLine } from "./ndjson.ts"

/** Signed heads read per page by export. */
const headsPageSize = 1_000

/** Data keys read per page by export. */
const keysPageSize = 1_000

/** Writes the key table's rows, if the store has one, before anything else. */
const exportKeys = Effect.fn("Audit.exportKeys")(function* (write: WriteChunk) {
  const keys = yield* Effect.serviceOption(SubjectKeys)
  if (Option.isNone(keys)) return
  let after = ""
  while (true) {
    const page = yield* keys.value.allKeys(after, keysPageSize)
    const last = page.at(-1)
    if (last === undefined) return
    yield* write(`${page.map(keyLine).join("\n")}\n`)
    after = last.keyId
  }
})

export interface ExportOptions {
  readonly pageSizeEvents?: number
  readonly onProgress?: (eventsWritten: number) => void
}

/** Writes the store's whole log as NDJSON, one page at a time; answers the number of events. */
export const exportLog = (
  write: WriteChunk,
  options: ExportOptions = {},
): Effect.Effect<number, StoreError | AuditError, EventStore> =>
  Effect.gen(function* () {
    const store = yield* EventStore
    const maxCount = options.pageSizeEvents ?? logPageSizeEventsDefault
    yield* exportKeys(write)
    let heads = yield* store.readSignedHeads({ afterCount: 0, maxCount: headsPageSize })
    let headIndex = 0
    /** The lines of the heads up to `count` events, reading the next page of heads as one runs out. */
    const headLinesUpTo = Effect.fnUntraced(function* (count: number) {
      const lines: Array<string> = []
      while (true) {
        if (headIndex === heads.length) {
          const last = heads.at(-1)
          if (last === undefined) return lines
          heads = yield* store.readSignedHeads({ afterCount: last.count, maxCount: headsPageSize })
          headIndex = 0
          if (heads.length === 0) return lines
        }
        const head = heads[headIndex]!
        if (head.count > count) return lines
        lines.push(headLine(head))
        headIndex++
      }
    })
    let after = logStart
    let events = 0
    while (true) {
      const page = yield* store.readAll({ after, maxCount })
      if (page.length === 0) break
      const lines: Array<string> = []
      for (const event of page) {
        lines.push(exportLine(event))
        events++
        // Each head right after the event it ends at, where import checks it.
        lines.push(...(yield* headLinesUpTo(events)))
      }
      yield* write(`${lines.join("\n")}\n`)
      after = page[page.length - 1]!.globalPosition
      options.onProgress?.(events)
    }
    // Heads past the log's end (its tail was cut off) are exported too, for import to refuse.
    const beyond = yield* headLinesUpTo(Number.MAX_SAFE_INTEGER)
    yield* write(`${[...beyond, endLine(events)].join("\n")}\n`)
    return events
  })
