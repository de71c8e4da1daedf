/**
 * A small benchmark harness: time a workload over repeated runs after a
 * warm-up, take the median rate, and print each figure beside a baseline
 * measured in the same process as a ratio (docs/architecture.md#testing). The
 * workload's runs and its baseline's runs alternate, so that a neighbour
 * busying the shared machine for a while slows both alike.
 */

import { cpus, freemem, totalmem } from "node:os"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { withoutUndefined } from "@mizan/kernel"

/** One thing to time. `Context` is what `setup` prepares for one run (a fresh file, rows to insert). */
export interface Workload<Context = undefined> {
  readonly name: string
  /** What one run does, counted in `unit`s: the rate is this count over a run's time. */
  readonly operationsPerRun: number
  /** Prepares one run; not timed. */
  setup?(): Context | Promise<Context>
  /**
   * The timed part. `round` says whether this run's rate counts: a workload
   * that records more than its rate (latencies, stalls) keeps only what the
   * measured runs saw, so that no warm-up run's samples reach a percentile.
   */
  run(context: Context, round: Round): unknown
  /** Cleans up after one run; not timed. */
  teardown?(context: Context): unknown
}

export interface RunCounts {
  /** Runs done and thrown away first, so that the JIT has compiled the hot path. */
  readonly warmupRuns: number
  /** Runs whose median is reported. */
  readonly measuredRuns: number
}

/** What a run is told about itself. */
export interface Round {
  /** False for the warm-up runs, whose rate (and whatever else they record) is thrown away. */
  readonly measured: boolean
}

export const runCountsDefault: RunCounts = { warmupRuns: 2, measuredRuns: 5 }

export interface Measurement {
  readonly name: string
  /** The median over the measured runs. */
  readonly operationsPerSecond: number
  /** Every measured run's rate, in the order run. */
  readonly runsOperationsPerSecond: ReadonlyArray<number>
}

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The nearest-rank `p`th percentile (p in 0..100; 100 is the largest) of values sorted ascending, NaN when there are none. */
const nearestRank = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

/** What the benchmarks report of a set of latencies (nearest-rank percentiles), in the values' unit. */
export interface Latencies {
  readonly p50: number
  readonly p99: number
  readonly max: number
}

export const latenciesOf = (values: ReadonlyArray<number>): Latencies => {
  const sorted = [...values].sort((a, b) => a - b)
  return { p50: nearestRank(sorted, 50), p99: nearestRank(sorted, 99), max: nearestRank(sorted, 100) }
}

/**
 * A full garbage collection, now. `--expose-gc` set at run time takes effect
 * in a new context, which is where `gc` is fetched from.
 */
export const collectGarbage: () => void = (() => {
  setFlagsFromString("--expose-gc")
  return runInNewContext("gc") as () => void
})()

/**
 * Times one run of `workload` and answers its rate in operations per second.
 * The garbage the previous run left (a replay's states, say) is collected
 * first, untimed, so that no run pays for another's.
 */
const timeOneRun = async <Context>(workload: Workload<Context>, round: Round): Promise<number> => {
  const context = (await workload.setup?.()) as Context
  collectGarbage()
  const startedMs = performance.now()
  await workload.run(context, round)
  const elapsedMs = performance.now() - startedMs
  await workload.teardown?.(context)
  return workload.operationsPerRun / (elapsedMs / 1_000)
}

/** Times each workload `counts.measuredRuns` times, one run of each in turn, after the warm-up runs. */
export const measureTogether = async (
  workloads: ReadonlyArray<Workload<unknown>>,
  counts: RunCounts = runCountsDefault,
): Promise<Array<Measurement>> => {
  const rates: Array<Array<number>> = workloads.map(() => [])
  for (let round = 0; round < counts.warmupRuns + counts.measuredRuns; round++) {
    const measured = round >= counts.warmupRuns
    for (const [i, workload] of workloads.entries()) {
      const rate = await timeOneRun(workload, { measured })
      if (measured) rates[i]!.push(rate)
    }
  }
  return workloads.map((workload, i) => ({
    name: workload.name,
    operationsPerSecond: median(rates[i]!),
    runsOperationsPerSecond: rates[i]!,
  }))
}

export interface Comparison {
  readonly measured: Measurement
  readonly baseline: Measurement
  /** The least `measured / baseline` that meets the goal, when there is one. */
  readonly goalRatio?: number
  /** What an operation is ("events", "rows"); shown beside the rates. */
  readonly unit: string
}

/** Pairs two measurements of one `measureTogether` run, in `unit`s, with the goal `measured` must reach, if any. */
export const comparisonOf = (
  measured: Measurement | undefined,
  baseline: Measurement | undefined,
  unit: string,
  goalRatio?: number,
): Comparison => {
  if (measured === undefined || baseline === undefined)
    throw new Error("a comparison of a workload that was not measured")
  return { measured, baseline, unit, ...withoutUndefined({ goalRatio }) }
}

/** Measures a workload and its baseline together (their runs alternate) and pairs them. */
export const compare = async <A, B>(
  workload: Workload<A>,
  baseline: Workload<B>,
  options: { readonly unit: string; readonly goalRatio?: number; readonly counts?: RunCounts },
): Promise<Comparison> => {
  const [measured, base] = await measureTogether([workload, baseline], options.counts)
  return comparisonOf(measured, base, options.unit, options.goalRatio)
}

const formatRate = (operationsPerSecond: number): string => Math.round(operationsPerSecond).toLocaleString("en-US")

const ratioOf = (comparison: Comparison): number =>
  comparison.measured.operationsPerSecond / comparison.baseline.operationsPerSecond

/** The comparisons as a Markdown table (printable as it is, and pasted into READMEs as it is). */
export const formatTable = (comparisons: ReadonlyArray<Comparison>): string => {
  const header = ["benchmark", "rate/s", "baseline", "baseline rate/s", "ratio", "goal"]
  const rows = comparisons.map((c) => {
    const ratio = ratioOf(c)
    const goal =
      c.goalRatio === undefined ? "" : `>= ${c.goalRatio.toFixed(2)} ${ratio >= c.goalRatio ? "met" : "MISSED"}`
    return [
      c.measured.name,
      `${formatRate(c.measured.operationsPerSecond)} ${c.unit}`,
      c.baseline.name,
      `${formatRate(c.baseline.operationsPerSecond)} ${c.unit}`,
      ratio.toFixed(2),
      goal,
    ]
  })
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: ReadonlyArray<string>) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n")
}

/** Whether every comparison with a goal met it. */
export const goalsMet = (comparisons: ReadonlyArray<Comparison>): boolean =>
  comparisons.every((c) => c.goalRatio === undefined || ratioOf(c) >= c.goalRatio)

/** The machine a run happened on, for the record beside its figures. */
export const describeMachine = (): string => {
  const gib = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`
  const cpu = cpus()
  return [
    `cpu: ${cpu[0]?.model ?? "unknown"} x ${cpu.length}`,
    `memory: ${gib(totalmem())} (${gib(freemem())} free)`,
    `node: ${process.version}`,
  ].join(", ")
}
