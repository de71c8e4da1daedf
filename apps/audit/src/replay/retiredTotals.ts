/**
 * The status counts and money of the streams a compact replay has retired
 * (retiredStreams.ts keeps their states), added as each retires and taken
 * back if one revives: a retired stream is no longer among the open ones a
 * report counts, and its totals must not be lost nor counted twice.
 */

import { type AuditFold, type MoneyFigures, moneyFigureNames } from "../model/auditFold.ts"
import type { AuditedAggregate } from "../model/registry.ts"
import { FilsTotal } from "./replayReport.ts"

/** How many streams of one aggregate kind are in one status. */
export interface StreamsInStatus {
  readonly kind: string
  readonly status: string
  streams: number
}

/** Adds each of `figures` to its total of `totals` (in `moneyFigureNames`' order), times `sign`. */
export const addMoney = (totals: ReadonlyArray<FilsTotal>, figures: MoneyFigures, sign: 1 | -1 = 1): void => {
  for (let i = 0; i < moneyFigureNames.length; i++) {
    const fils = figures[moneyFigureNames[i]!]
    if (fils !== undefined && fils !== 0) totals[i]!.add(sign * fils)
  }
}

export class RetiredTotals {
  /** By aggregate, then status: a key string made per retired stream was most of what retiring allocated. */
  readonly #counts = new Map<AuditedAggregate, Map<string, StreamsInStatus>>()
  /** Each of `moneyFigureNames`' sums over the retired streams, in their order. */
  readonly money: ReadonlyArray<FilsTotal> = moneyFigureNames.map(() => new FilsTotal())

  /** Adds a retired stream's status and money to the totals (`sign` 1), or takes them back (-1). */
  add(aggregate: AuditedAggregate, fold: AuditFold, state: unknown, sign: 1 | -1): void {
    const status = fold.status(state)
    let byStatus = this.#counts.get(aggregate)
    if (byStatus === undefined) {
      byStatus = new Map()
      this.#counts.set(aggregate, byStatus)
    }
    const count = byStatus.get(status)
    if (count === undefined) byStatus.set(status, { kind: aggregate.kind, status, streams: sign })
    else count.streams += sign
    addMoney(this.money, fold.money(state), sign)
  }

  /** The statuses some retired stream is in, with how many are. */
  *statusCounts(): Generator<StreamsInStatus> {
    for (const byStatus of this.#counts.values())
      for (const count of byStatus.values()) if (count.streams > 0) yield count
  }
}
