/**
 * A second (and third) process for crossProcess.spec.ts: spends from one
 * stream through the command handler on the PostgreSQL store, starting at
 * an agreed instant so that the processes overlap, and prints each spend's
 * outcome as JSON.
 */
import { handleCommand } from "@mizan/eventsourcing"
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

const program = Effect.gen(function* () {
  yield* Effect.sleep(Math.max(0, Number(required("START_AT_MS")) - Date.now()))
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
