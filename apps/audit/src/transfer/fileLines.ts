import { createReadStream } from "node:fs"
import { createInterface } from "node:readline"
import { fileErrorReason } from "@mizan/command-line"
import type { EventStore } from "@mizan/eventsourcing"
import { Effect } from "effect"
import { AuditError } from "../common/stores.ts"

/** One line of an export file, numbered from 1 as an editor numbers it. */
export interface Line {
  readonly number: number
  readonly text: string
}

/** Runs `each` on the lines of a file, one at a time, without reading it whole; answers how many there were. */
export const linesOf = <E>(path: string, each: (line: Line) => Effect.Effect<void, E, EventStore>) =>
  Effect.suspend(() => {
    const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY })
    const iterator = lines[Symbol.asyncIterator]()
    const nextLine = Effect.tryPromise({
      try: () => iterator.next(),
      catch: (error) => new AuditError({ detail: `cannot read the export file ${path}: ${fileErrorReason(error)}` }),
    })
    return Effect.gen(function* () {
      let number = 0
      while (true) {
        const next = yield* nextLine
        if (next.done === true) return number
        number++
        yield* each({ number, text: next.value })
      }
    }).pipe(Effect.ensuring(Effect.sync(() => lines.close())))
  })

/** An import error that names the line of the file it is about. */
export const atLine = (number: number, detail: string) => new AuditError({ detail: `line ${number}: ${detail}` })
