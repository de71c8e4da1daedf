import { spawn } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { handleCommand, loadAggregate } from "@mizan/eventsourcing"
import { budget } from "@mizan/eventsourcing/testing"
import { Effect } from "effect"
import { layerPostgres } from "../src/index.ts"
import { freshSchema, postgresUrl } from "./support.ts"

const spenderScript = join(import.meta.dirname, "crossProcess", "spender.ts")
const spenderTimeoutMs = 40_000

interface Spender {
  /** Resolves once the spender's store is open. */
  readonly ready: Promise<void>
  readonly go: () => void
  readonly outcomes: Promise<ReadonlyArray<string>>
}

/** Runs spender.ts in its own Node process (vitest's own Node 24, which runs .ts directly). */
const spendInAnotherProcess = (env: Record<string, string>): Spender => {
  const child = spawn(process.execPath, [spenderScript], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
    timeout: spenderTimeoutMs,
  })
  let stdout = ""
  let stderr = ""
  const ready = new Promise<void>((resolve) =>
    child.stderr.on("data", (chunk) => {
      stderr += chunk
      if (stderr.includes("ready\n")) resolve()
    }),
  )
  child.stdout.on("data", (chunk) => (stdout += chunk))
  const outcomes = new Promise<ReadonlyArray<string>>((resolve, reject) => {
    child.on("error", reject)
    child.on("close", (code, signal) =>
      code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`spender ${code ?? signal}: ${stderr}`)),
    )
  })
  return { ready: Promise.race([ready, outcomes.then(() => undefined)]), go: () => child.stdin.end("go\n"), outcomes }
}

/** Amounts between 20 and 65 fils, different for each worker. */
const amountsFor = (worker: number, count: number) =>
  Array.from({ length: count }, (_, i) => 20 + ((i * 7 + worker * 13) % 46))

describe("two processes on one database", () => {
  // Live clock: the spenders are child processes, racing in real time.
  it.live(
    "never overspend a balance, whatever the interleaving of their commands",
    () =>
      Effect.gen(function* () {
        const schema = freshSchema()
        const stream = "limit-1"
        const fundedFils = 1_000
        const layer = layerPostgres(postgresUrl(), { schema })
        yield* Effect.provide(handleCommand(budget, stream, { _tag: "Fund", amount: fundedFils }), layer)

        const workers = [1, 2]
        // Each worker asks for less than the balance (about 800 fils of 1,000), both together for more:
        // each gets spends through and the limit is reached, whichever runs faster.
        const amounts = workers.map((worker) => amountsFor(worker, 18))
        for (const asked of amounts.map((list) => list.reduce((a, b) => a + b, 0)))
          expect(asked).toBeLessThan(fundedFils)
        expect(amounts.flat().reduce((a, b) => a + b, 0)).toBeGreaterThan(fundedFils)
        const spenders = workers.map((worker, i) =>
          spendInAnotherProcess({
            POSTGRES_URL: postgresUrl(),
            SCHEMA: schema,
            STREAM: stream,
            WORKER: `w${worker}`,
            SPEND_AMOUNTS_FILS: JSON.stringify(amounts[i]),
          }),
        )
        // Both start spending together, however long each took to start.
        yield* Effect.promise(() => Promise.all(spenders.map((spender) => spender.ready)))
        for (const spender of spenders) spender.go()
        const outcomes = yield* Effect.promise(() => Promise.all(spenders.map((spender) => spender.outcomes)))

        const acceptedFils = outcomes.flatMap((outcome, w) =>
          outcome.flatMap((result, i) => (result === "Accepted" ? [amounts[w]![i]!] : [])),
        )
        const spentFils = acceptedFils.reduce((a, b) => a + b, 0)
        const { state, streamVersion } = yield* Effect.provide(loadAggregate(budget, stream), layer)
        for (const result of outcomes.flat()) expect(["Accepted", "LimitExceeded", "VersionConflict"]).toContain(result)
        // Both processes got spends through, and the limit was reached.
        for (const outcome of outcomes) expect(outcome).toContain("Accepted")
        expect(outcomes.flat()).toContain("LimitExceeded")
        // Every accepted spend is recorded once, and nothing else is.
        expect(spentFils).toBeLessThanOrEqual(fundedFils)
        expect(state.balance).toBe(fundedFils - spentFils)
        expect(state.references.size).toBe(acceptedFils.length)
        expect(streamVersion).toBe(1 + acceptedFils.length)
      }),
    { timeout: 60_000 },
  )
})
