/** How `verify` reports: a few lines for people, one JSON object for machines. */
import { formatCount, isoTime, toJson } from "../common/format.ts"
import { type VerifyFinding, type VerifyReport, verifyIsClean, verifyIsUnanchored } from "./verify.ts"

const placeOf = (finding: VerifyFinding): string =>
  finding._tag === "Event"
    ? `event ${finding.streamId} v${finding.streamVersion} at global position ${finding.globalPosition}`
    : `signed head of ${formatCount(finding.count)} events (signed ${isoTime(finding.signedAt)})`

export const verifyText = (report: VerifyReport): string => {
  const read = `${formatCount(report.events)} events in ${formatCount(report.streams)} streams, ${formatCount(report.headsChecked)} signed heads`
  // The chain hashes are no secret: only a signed head proves the events before it. What no head covers, the
  // report says in so many words (an edit that rewrote the hashes passes every link).
  const unproven = "an edit that rewrote their chain hashes, or a cut"
  const uncovered =
    report.eventsAfterLastHead === 0 || report.headsChecked === 0
      ? ""
      : `${formatCount(report.eventsAfterLastHead)} events after the last signed head: ${unproven} among them, would not show yet\n`
  if (report.findings.length === 0)
    return verifyIsUnanchored(report)
      ? `NOT VERIFIED: read ${read}: every link holds, but no signed head covers any event, so nothing anchors the chain: ${unproven}, would not show\n`
      : `verified ${read}: every link and every head holds\n${uncovered}`
  const [first] = report.findings
  const lines = report.findings.map((finding) => `  ${placeOf(finding)}: ${finding.detail}`)
  const more = report.findingsNotListed === 0 ? [] : [`  ... and ${formatCount(report.findingsNotListed)} more`]
  return [`BROKEN: read ${read}`, `the first difference: ${placeOf(first!)}`, ...lines, ...more, ""]
    .join("\n")
    .concat(uncovered)
}

export const verifyJson = (report: VerifyReport): string => `${toJson({ ok: verifyIsClean(report), ...report })}\n`
