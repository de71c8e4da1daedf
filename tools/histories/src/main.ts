/**
 * Writes a generated history into an SQLite store:
 *
 *   npx node tools/histories/src/main.ts --seed 1 --events 100000 --store sqlite:/tmp/h.db
 *
 * A relative path is taken from the directory the command was started in.
 * The store must be empty (a history is written from its start); the file is
 * created when absent. Other stores: call `generateHistory` with their layer.
 */
// Before any schema is used: compiled decoders make loading each stream before a command about twice as fast.
import { withoutUndefined } from "@mizan/kernel"
import "effect/schema/SchemaJITCompiler/enable"
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { type CommandLineError, readCommandLine } from "@mizan/command-line"
import { EventStore, logStart } from "@mizan/eventsourcing"
import { timestamp } from "@mizan/kernel"
import { makeSqliteEventStore } from "@mizan/store-sqlite"
import { Effect } from "effect"
import { generateHistory } from "./generate.ts"

const usage = "usage: histories --seed N --events N --store sqlite:PATH [--start ISO-DATE-TIME]"

const fail = (message: string): never => {
  console.error(message)
  process.exit(2)
}

const wholeNumber = (name: string, text: string | undefined): number => {
  if (text === undefined) return fail(`--${name} is required\n${usage}`)
  const n = Number(text)
  return /^[0-9]+$/.test(text) && Number.isSafeInteger(n) ? n : fail(`--${name} must be a whole number\n${usage}`)
}

/** The command line, or a refusal in one line (an unknown option, an option without its value: `--events --seed 1`). */
const argumentsOf = () => {
  try {
    return readCommandLine("histories", process.argv.slice(2), {
      seed: { type: "string" },
      events: { type: "string" },
      store: { type: "string" },
      start: { type: "string" },
    })
  } catch (error) {
    return fail((error as CommandLineError).message)
  }
}

const commandLine = argumentsOf()
if (commandLine.help) {
  console.log(usage)
  process.exit(0)
}
const { values } = commandLine

const seed = wholeNumber("seed", values.seed)
const events = wholeNumber("events", values.events)
const setting = values.store ?? fail(`--store is required\n${usage}`)
if (!setting.startsWith("sqlite:")) fail(`only sqlite:PATH stores are written from the command line\n${usage}`)
const path = resolve(process.env.INIT_CWD ?? process.cwd(), setting.slice("sqlite:".length))
const startMs = values.start === undefined ? undefined : Date.parse(values.start)
if (startMs !== undefined && Number.isNaN(startMs)) fail(`--start must be an ISO date-time\n${usage}`)
const startAt = startMs === undefined ? undefined : timestamp(startMs)

const program = Effect.gen(function* () {
  const store = yield* EventStore
  if (existsSync(path) && (yield* store.readAll({ after: logStart, maxCount: 1 })).length > 0)
    return yield* Effect.fail(new Error(`${path} already holds events: a history is written into an empty store`))
  const startedMs = performance.now()
  const history = yield* generateHistory({ seed, events, ...withoutUndefined({ startAt }) })
  const seconds = (performance.now() - startedMs) / 1_000
  console.log(JSON.stringify(history, null, 2))
  console.error(`${history.events} events in ${seconds.toFixed(1)} s into ${path}`)
})

// A generated history needs no power-loss durability: "normal" commits are several times faster.
const withStore = Effect.flatMap(makeSqliteEventStore(path, { synchronous: "normal" }), (store) =>
  Effect.provideService(program, EventStore, store),
)

Effect.runPromise(Effect.scoped(withStore)).catch((error: unknown) =>
  fail(`histories: ${error instanceof Error ? error.message : String(error)}`),
)
