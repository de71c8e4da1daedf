/**
 * What one replayer saw, without the rules that span streams: the report a
 * parallel replay's worker posts, and a whole replay's only part. The open
 * streams are counted by status and their money summed here; the retired
 * ones were as they retired (retiredTotals.ts).
 */

import { moneyFigureNames } from "../model/auditFold.ts"
import type { EventFolder } from "./eventFolder.ts"
import type { HeldStreams } from "./heldStreams.ts"
import type { ReplayFindings } from "./replayFindings.ts"
import { FilsTotal, type PartialReport, unknownKind } from "./replayReport.ts"
import { addMoney, type StreamsInStatus } from "./retiredTotals.ts"

/** The part of `held`'s streams, `findings` and `folder`'s counts, once the last append's check is done. */
export const partOf = (held: HeldStreams, findings: ReplayFindings, folder: EventFolder): PartialReport => {
  const totals = moneyFigureNames.map(() => new FilsTotal())
  const counted = new Map<string, StreamsInStatus>()
  for (const count of held.retiredTotals.statusCounts()) counted.set(`${count.kind}\u0000${count.status}`, { ...count })
  for (const { aggregate, fold, state } of held.table.open()) {
    const kind = aggregate?.kind ?? unknownKind
    const status = fold === undefined ? unknownKind : fold.status(state)
    const key = `${kind}\u0000${status}`
    const count = counted.get(key)
    if (count === undefined) counted.set(key, { kind, status, streams: 1 })
    else count.streams++
    if (fold !== undefined) addMoney(totals, fold.money(state))
  }
  const { broken, undecodable, versionGaps } = findings
  return {
    events: folder.events,
    notificationAttempts: folder.notificationAttempts,
    streams: held.table.size,
    firstPosition: folder.firstPosition,
    lastPosition: folder.lastPosition,
    statusCounts: [...counted.values()],
    money: totals.map((total, i) => total.total() + held.retiredTotals.money[i]!.total()),
    brokenInvariants: { total: broken.total, listed: [...broken.listed] },
    undecodable: { total: undecodable.total, listed: [...undecodable.listed] },
    versionGaps: { total: versionGaps.total, listed: [...versionGaps.listed] },
  }
}
