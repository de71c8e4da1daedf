/**
 * A replay's report, for people (text) and for machines (JSON). Money is
 * printed as exact decimals of AED from the bigint sums of fils; positions
 * are decimal strings in JSON, since they are bigints.
 */
import { withoutUndefined } from "@mizan/kernel"
import { formatCount, formatFilsBig, formatFilsBigGrouped } from "../common/format.ts"
import { type MoneyFigureName, moneyFigureNames } from "../model/auditFold.ts"
import { type EventPlace, type Findings, isClean, type ReplayReport } from "./replay.ts"

const moneyLabels: Readonly<Record<MoneyFigureName, string>> = {
  paid: "paid",
  refunded: "refunded",
  settled: "settled",
  paidOut: "paid out",
  fees: "fees",
  deposited: "deposited",
}

const placeJson = (place: EventPlace) => ({ ...place, globalPosition: place.globalPosition.toString() })

const findingsJson = <A extends EventPlace>(findings: Findings<A>) => ({
  total: findings.total,
  listed: findings.listed.map(placeJson),
})

/** The report as plain JSON values: bigints as decimal strings, money as AED decimals ("1234.50"). */
export const reportJson = (report: ReplayReport, elapsedMs?: number) => ({
  ok: isClean(report),
  events: report.events,
  notificationAttempts: report.notificationAttempts,
  streams: report.streams,
  firstPosition: report.firstPosition?.toString() ?? null,
  lastPosition: report.lastPosition?.toString() ?? null,
  ...withoutUndefined({ elapsedMs: elapsedMs === undefined ? undefined : Math.round(elapsedMs) }),
  counts: Object.fromEntries(
    report.counts.map((k) => [
      k.kind,
      { streams: k.streams, statuses: Object.fromEntries(k.statuses.map((s) => [s.status, s.streams])) },
    ]),
  ),
  moneyAed: Object.fromEntries(moneyFigureNames.map((name) => [name, formatFilsBig(report.money[name])])),
  brokenInvariants: findingsJson(report.brokenInvariants),
  undecodable: findingsJson(report.undecodable),
  versionGaps: findingsJson(report.versionGaps),
})

const where = (place: EventPlace): string =>
  `${place.streamId} v${place.streamVersion} (position ${place.globalPosition})`

const findingsText = <A extends EventPlace>(
  title: string,
  findings: Findings<A>,
  describe: (finding: A) => string,
): Array<string> => {
  const lines = [`${title}: ${formatCount(findings.total)}`]
  for (const finding of findings.listed) lines.push(`  ${where(finding)}: ${describe(finding)}`)
  const unlisted = findings.total - findings.listed.length
  if (unlisted > 0)
    lines.push(`  ... and ${formatCount(unlisted)} more (the report lists the first ${findings.listed.length})`)
  return lines
}

/** The report for a terminal or a log. */
export const reportText = (report: ReplayReport, elapsedMs?: number): string => {
  const positions =
    report.firstPosition === undefined ? "" : `, positions ${report.firstPosition} to ${report.lastPosition}`
  const timing =
    elapsedMs === undefined
      ? ""
      : ` in ${(elapsedMs / 1_000).toFixed(1)} s (${formatCount(Math.round((report.events / Math.max(elapsedMs, 1)) * 1_000))} events/s)`
  const kindWidth = Math.max(8, ...report.counts.map((k) => k.kind.length))
  const countWidth = Math.max(1, ...report.counts.map((k) => formatCount(k.streams).length))
  const moneyWidth = Math.max(...moneyFigureNames.map((n) => formatFilsBigGrouped(report.money[n]).length))
  const lines = [
    `Replayed ${formatCount(report.events)} events of ${formatCount(report.streams)} streams${positions}${timing}.`,
    "",
    "Streams by aggregate and status",
    ...report.counts.map(
      (k) =>
        `  ${k.kind.padEnd(kindWidth)}  ${formatCount(k.streams).padStart(countWidth)}  ${k.statuses
          .map((s) => `${s.status} ${formatCount(s.streams)}`)
          .join(", ")}`,
    ),
    "",
    "Money (AED)",
    ...moneyFigureNames.map(
      (name) => `  ${moneyLabels[name].padEnd(10)}${formatFilsBigGrouped(report.money[name]).padStart(moneyWidth)}`,
    ),
    "",
    `Notification attempts recorded: ${formatCount(report.notificationAttempts)}`,
    "",
    ...findingsText("Broken invariants", report.brokenInvariants, (f) =>
      f.detail === "" ? `${f.kind}: ${f.rule}` : `${f.kind}: ${f.rule} (${f.detail})`,
    ),
    ...findingsText("Undecodable events", report.undecodable, (f) => `${f.type} v${f.schemaVersion}: ${f.reason}`),
    ...findingsText("Version gaps", report.versionGaps, (f) => `expected version ${f.expectedVersion}`),
    "",
    isClean(report)
      ? "OK: every event decoded, every stream's versions follow on, every invariant held."
      : "BROKEN: see above.",
  ]
  return `${lines.join("\n")}\n`
}
