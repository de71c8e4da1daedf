/**
 * A second (and third) process for crossProcess.spec.ts: spends from one
 * stream through the command handler on the PostgreSQL store, and prints
 * each spend's outcome as JSON. It says "ready" on stderr once its store is
 * open, and starts at the "go" its parent writes to stdin when every
 * spender is ready, so that the processes overlap however slowly each starts.
 */
import { handleCommand, loadAggregate } from "@mizan/eventsourcing"
import { budget } from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
import { layerPostgres } from "../../src/index.ts"

/** Commands each process keeps in flight at once. */
const concurrentSpends = 4

const required = (name: string): string => {
  const value = process.env[name]
  if (value === undefined) throw new Error(`${name} is not set`)
  return value
}

const amountsFils: ReadonlyArray<number> = JSON.parse(required("SPEND_AMOUNTS_FILS"))
const worker = required("WORKER")
const stream = required("STREAM")

const go = Effect.callback<void>((resume) => {
  process.stdin.once("data", () => resume(Effect.void))
})

const program = Effect.gen(function* () {
  // A first read opens the store's connections before the race starts.
  yield* loadAggregate(budget, stream)
  process.stderr.write("ready\n")
  yield* go
  return yield* Effect.forEach(
    amountsFils,
    (amountFils, i) =>
      handleCommand(budget, stream, { _tag: "Spend", amount: amountFils, reference: `${worker}-${i}` }).pipe(
        Effect.map(() => "Accepted"),
        // The budget refuses an overspend with a Rejection: the limit held.
        Effect.catch((error) => Effect.succeed(error._tag === "Rejection" ? "LimitExceeded" : error._tag)),
      ),
    { concurrency: concurrentSpends },
  )
}).pipe(Effect.provide(layerPostgres(required("POSTGRES_URL"), { schema: required("SCHEMA") })))

process.stdout.write(JSON.stringify(await Effect.runPromise(program)))
