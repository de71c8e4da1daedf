/**
 * A progress bar for long reads, drawn on a terminal only: a pipe, a file,
 * CI and the tests get nothing (and --json output stays clean).
 *
 *   replay [##########----------]  48%  480,000/1,000,000 events  95,000 events/s  5 s left
 */
import { formatCount } from "../common/format.ts"

export interface Progress {
  /** `done` events of the work are done. */
  readonly update: (done: number) => void
  /** Clears the bar, leaving the line for what comes next. */
  readonly finish: () => void
}

export const noProgress: Progress = { update: () => undefined, finish: () => undefined }

/** Redraws at most this often: a terminal that redraws on every page slows the work it reports. */
export const redrawIntervalMs = 100
const barWidthChars = 20

export interface ProgressTarget {
  readonly isTTY?: boolean
  readonly write: (text: string) => unknown
}

/** Whether a bar belongs on `out`: a terminal, outside CI. */
export const wantsProgress = (out: ProgressTarget, env: Readonly<Record<string, string | undefined>>): boolean =>
  out.isTTY === true && env.CI === undefined

const secondsText = (seconds: number): string =>
  seconds >= 3_600
    ? `${Math.floor(seconds / 3_600)} h ${Math.round((seconds % 3_600) / 60)} min`
    : seconds >= 60
      ? `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`
      : `${Math.ceil(seconds)} s`

/** One line of the bar: what is done, the rate, and (with a total) the share and the time left. */
export const progressLine = (label: string, done: number, total: number | undefined, elapsedMs: number): string => {
  const rate = elapsedMs > 0 ? (done / elapsedMs) * 1_000 : 0
  const rateText = `${formatCount(Math.round(rate))} events/s`
  if (total === undefined || total <= 0) return `${label}  ${formatCount(done)} events  ${rateText}`
  const share = Math.min(1, done / total)
  const filled = Math.round(share * barWidthChars)
  const bar = `[${"#".repeat(filled)}${"-".repeat(barWidthChars - filled)}]`
  const left = rate > 0 ? `  ${secondsText((total - Math.min(done, total)) / rate)} left` : ""
  return `${label} ${bar} ${String(Math.floor(share * 100)).padStart(3)}%  ${formatCount(done)}/${formatCount(total)} events  ${rateText}${left}`
}

export const makeProgress = (out: ProgressTarget, label: string, total: number | undefined): Progress => {
  const startedMs = performance.now()
  let drawnMs = Number.NEGATIVE_INFINITY
  return {
    update: (done) => {
      const nowMs = performance.now()
      if (nowMs - drawnMs < redrawIntervalMs) return
      drawnMs = nowMs
      out.write(`\r${progressLine(label, done, total, nowMs - startedMs)}\x1b[K`)
    },
    finish: () => void out.write("\r\x1b[K"),
  }
}
