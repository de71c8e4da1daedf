/**
 * The replayer's parts on their own (src/replay/: the findings, the retired
 * streams' totals, the loop that folds events), on a piggy bank whose total
 * must never fall below zero and which is final once it holds 100 fils.
 * replay.spec.ts proves the composed replayer on generated histories.
 */

import { describe, expect, it } from "@effect/vitest"
import { type GlobalPosition, logStart, makeEventCodec, type RecordedEvent } from "@mizan/eventsourcing"
import { Schema } from "effect"
import { type AuditFold, type MoneyFigureName, moneyFigureNames } from "../src/model/auditFold.ts"
import type { AuditedAggregate } from "../src/model/registry.ts"
import { EventFolder } from "../src/replay/eventFolder.ts"
import { HeldStreams } from "../src/replay/heldStreams.ts"
import { partOf } from "../src/replay/partialReport.ts"
import { ReplayFindings } from "../src/replay/replayFindings.ts"
import { RetiredTotals } from "../src/replay/retiredTotals.ts"
import type { TrackedStream } from "../src/replay/tracked.ts"

const Deposited = Schema.TaggedStruct("Deposited", { amountFils: Schema.Int })
const belowZero = "a piggy bank never holds less than nothing"

const piggyFold: AuditFold<typeof Deposited.Type, number> = {
  initial: () => 0,
  evolve: (total, event) => total + event.amountFils,
  invariants: (total) => (total < 0 ? [{ rule: belowZero, detail: `${total} fils` }] : []),
  status: (total) => (total >= 100 ? "FULL" : "SAVING"),
  money: (total) => ({ deposited: total }),
  ended: (total) => total >= 100,
}

/** The registry's entry of the piggy bank, its types erased as the registry erases them. */
const fold = piggyFold as AuditFold
const piggyBank: AuditedAggregate = {
  kind: "piggyBank",
  owns: (streamId) => streamId.startsWith("piggy-"),
  codec: makeEventCodec(Deposited, { Deposited: { current: 1 } }) as AuditedAggregate["codec"],
  initialState: 0,
  evolve: fold.evolve,
  invariants: fold.invariants,
  status: fold.status,
  money: fold.money,
  ended: fold.ended,
}

const moneyIndexOf = (name: MoneyFigureName): number => moneyFigureNames.indexOf(name)

/** A fresh replayer's parts over the piggy bank alone, retiring final streams. */
const partsOf = () => {
  const held = new HeldStreams([piggyBank], new Map([[piggyBank, fold]]), undefined)
  const findings = new ReplayFindings(10)
  return { held, findings, folder: new EventFolder(held, findings, true) }
}

/** The `n`th event of the log (position n), a deposit into `streamId` recorded at `recordedAt`. */
const deposit = (n: number, streamId: string, streamVersion: number, amountFils: number, recordedAt: number) =>
  ({
    id: `event-${n}`,
    streamId,
    streamVersion,
    globalPosition: BigInt(n) as GlobalPosition,
    type: "Deposited",
    schemaVersion: 1,
    data: { _tag: "Deposited", amountFils },
    metadata: { recordedAt },
  }) as RecordedEvent

const piggyStream = (state: number): TrackedStream => ({
  streamId: "piggy-1",
  aggregate: piggyBank,
  fold,
  state,
  version: 1,
  lastPosition: logStart,
  lastRecordedAt: 0,
  broken: undefined,
  firstRead: 1,
})

describe("the replayer's parts", () => {
  it("reports a broken rule once while it stays broken, and again once it breaks after holding", () => {
    const findings = new ReplayFindings(10)
    const stream = piggyStream(-5)
    findings.checkInvariants(stream, "piggyBank", fold)
    stream.state = -7
    findings.checkInvariants(stream, "piggyBank", fold)
    expect(findings.broken.listed.map((b) => b.detail)).toEqual(["-5 fils"])
    stream.state = 3
    findings.checkInvariants(stream, "piggyBank", fold)
    expect(stream.broken).toBeUndefined()
    stream.state = -1
    findings.checkInvariants(stream, "piggyBank", fold)
    expect(findings.broken.listed.map((b) => b.detail)).toEqual(["-5 fils", "-1 fils"])
  })

  it("takes back a revived stream's status and money, as if it had never retired", () => {
    const totals = new RetiredTotals()
    totals.add(piggyBank, fold, 100, 1)
    totals.add(piggyBank, fold, 250, 1)
    expect([...totals.statusCounts()]).toEqual([{ kind: "piggyBank", status: "FULL", streams: 2 }])
    expect(totals.money[moneyIndexOf("deposited")]?.total()).toBe(350n)
    totals.add(piggyBank, fold, 250, -1)
    totals.add(piggyBank, fold, 100, -1)
    expect([...totals.statusCounts()]).toEqual([])
    expect(totals.money[moneyIndexOf("deposited")]?.total()).toBe(0n)
  })

  it("judges an append on the state it leaves, not on the state between its events", () => {
    const { findings, folder } = partsOf()
    // One append of two events (one recorded time): -5 then +10 leaves 5, never below zero once written.
    folder.fold(deposit(1, "piggy-1", 1, -5, 1_000), undefined)
    folder.fold(deposit(2, "piggy-1", 2, 10, 1_000), undefined)
    // A later append that leaves it below zero is reported, at its own place.
    folder.fold(deposit(3, "piggy-1", 3, -8, 2_000), undefined)
    folder.checkDue()
    expect(findings.broken.listed).toEqual([
      {
        streamId: "piggy-1",
        streamVersion: 3,
        globalPosition: 3n,
        kind: "piggyBank",
        rule: belowZero,
        detail: "-3 fils",
      },
    ])
  })

  it("retires a stream once an append leaves it final, and revives it for an event after its end", () => {
    const { held, findings, folder } = partsOf()
    folder.fold(deposit(1, "piggy-1", 1, 100, 1_000), undefined)
    folder.fold(deposit(2, "piggy-2", 1, 40, 2_000), undefined)
    expect(held.view().isRetired("piggy-1")).toBe(true)
    expect(partOf(held, findings, folder).statusCounts).toEqual([
      { kind: "piggyBank", status: "FULL", streams: 1 },
      { kind: "piggyBank", status: "SAVING", streams: 1 },
    ])
    folder.fold(deposit(3, "piggy-1", 2, -150, 3_000), undefined)
    folder.checkDue()
    expect(held.view().isRetired("piggy-1")).toBe(false)
    const part = partOf(held, findings, folder)
    expect(part.statusCounts).toEqual([{ kind: "piggyBank", status: "SAVING", streams: 2 }])
    expect(part.money[moneyIndexOf("deposited")]).toBe(-10n)
    expect(part.brokenInvariants.listed.map((b) => b.detail)).toEqual(["-50 fils"])
  })
})
