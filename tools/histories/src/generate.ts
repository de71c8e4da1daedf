/**
 * `generateHistory`: a realistic history of the service, written through
 * the real deciders and `handleCommand` into whatever EventStore is
 * provided, deterministic for a seed.
 *
 * It is a discrete-event simulation. Stories (an acquiring order, a wallet
 * transfer, ...) arrive at random moments of simulated time (a Poisson
 * process); each story's steps are queued at the moments they happen, and
 * the generator runs the earliest step next, with the simulated clock set
 * to its moment. So the log interleaves thousands of orders as a live
 * service's would, and `recordedAt` is the simulated time of each step.
 * Nothing runs concurrently: the same seed gives the same log, event ids and
 * times included.
 */

import { EventStore, type StoreError, type VersionConflict } from "@mizan/eventsourcing"
import { dayMs, type Timestamp, timestamp } from "@mizan/kernel"
import type { MemberDirectoryUnavailable } from "@mizan/order-flows"
import { layerSandboxMemberDirectory } from "@mizan/order-flows"
import { Clock, Effect } from "effect"
import { SimulatedClock } from "./clock.ts"
import { makeRandom } from "./random.ts"
import { recordingStore } from "./recordingStore.ts"
import { acquiringStory } from "./stories/acquiring.ts"
import { bankStory, cardStory, vamDepositStory, walletStory } from "./stories/transfers.ts"
import type { Step } from "./story.ts"
import { makeWorld, type World } from "./world.ts"

export const storyKinds = ["acquiring", "wallet", "bank", "card", "vamDeposit"] as const
export type StoryKind = (typeof storyKinds)[number]

const stories: Readonly<Record<StoryKind, (world: World) => Step>> = {
  acquiring: acquiringStory,
  wallet: walletStory,
  bank: bankStory,
  card: cardStory,
  vamDeposit: vamDepositStory,
}

export interface GenerateOptions {
  readonly seed: number
  /** Stop once about this many events are written (the last step's events may pass it by a few). */
  readonly events: number
  /** When the history starts; 2026-01-01T00:00:00Z by default. */
  readonly startAt?: Timestamp
  /** How often stories of each kind start, relative to each other. */
  readonly mix?: Readonly<Record<StoryKind, number>>
  /**
   * The mean simulated time between two new stories; by default what spreads
   * the stories over `historySpanDays`, whatever the size, so that even a
   * small history reaches settlements, refunds and expiries.
   */
  readonly meanArrivalGapMs?: number
  readonly merchantCount?: number
  /** Sandbox members that wallet transfers go to; by default one per 400 events asked for (at least 20). */
  readonly memberCount?: number
}

export const generateDefaults = {
  startAt: timestamp(Date.UTC(2026, 0, 1)),
  mix: { acquiring: 0.6, wallet: 0.1, bank: 0.1, card: 0.1, vamDeposit: 0.1 },
  historySpanDays: 120,
  /** About how many events a story writes, over the mix (measured on generated histories). */
  eventsPerStory: 4,
  merchantCount: 8,
  eventsPerMember: 400,
  membersMin: 20,
} as const

export interface GeneratedHistory {
  readonly seed: number
  readonly events: number
  readonly storiesStarted: Readonly<Record<StoryKind, number>>
  /** Requests the service refused, by the name of the code it answered (a story ends at a refusal). */
  readonly refusals: Readonly<Record<string, number>>
  readonly startedAt: Timestamp
  readonly endedAt: Timestamp
}

interface Scheduled {
  readonly atMs: number
  /** Breaks ties between steps at the same moment: first scheduled, first run. */
  readonly sequence: number
  readonly step: Step
}

/** A binary min-heap of steps by (time, sequence). */
class Agenda {
  readonly #heap: Array<Scheduled> = []

  get size(): number {
    return this.#heap.length
  }

  peek(): Scheduled | undefined {
    return this.#heap[0]
  }

  push(item: Scheduled): void {
    const heap = this.#heap
    heap.push(item)
    let i = heap.length - 1
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!Agenda.before(heap[i]!, heap[parent]!)) break
      ;[heap[i], heap[parent]] = [heap[parent]!, heap[i]!]
      i = parent
    }
  }

  pop(): Scheduled | undefined {
    const heap = this.#heap
    const top = heap[0]
    const last = heap.pop()
    if (top === undefined || last === undefined || heap.length === 0) return top
    heap[0] = last
    let i = 0
    while (true) {
      const left = 2 * i + 1
      const right = left + 1
      let smallest = i
      if (left < heap.length && Agenda.before(heap[left]!, heap[smallest]!)) smallest = left
      if (right < heap.length && Agenda.before(heap[right]!, heap[smallest]!)) smallest = right
      if (smallest === i) return top
      ;[heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!]
      i = smallest
    }
  }

  private static before(a: Scheduled, b: Scheduled): boolean {
    return a.atMs < b.atMs || (a.atMs === b.atMs && a.sequence < b.sequence)
  }
}

export type GenerateError = StoreError | VersionConflict | MemberDirectoryUnavailable

/** Writes a history of about `options.events` events into the EventStore provided. */
export const generateHistory = (options: GenerateOptions): Effect.Effect<GeneratedHistory, GenerateError, EventStore> =>
  Effect.gen(function* () {
    const settings = { ...generateDefaults, ...options }
    const meanArrivalGapMs =
      options.meanArrivalGapMs ??
      Math.max(
        1,
        Math.round((settings.historySpanDays * dayMs * settings.eventsPerStory) / Math.max(1, options.events)),
      )
    const random = makeRandom(settings.seed)
    const clock = new SimulatedClock(settings.startAt)
    // Ids draw from their own generator, so that the stories' choices do not depend on how many ids were made.
    const recording = recordingStore(yield* EventStore, makeRandom(settings.seed ^ 0x5bd1e995), clock)
    const refusals = new Map<string, number>()
    const memberCount =
      options.memberCount ??
      Math.max(generateDefaults.membersMin, Math.ceil(settings.events / settings.eventsPerMember))
    const world = makeWorld({ random, clock, merchantCount: settings.merchantCount, memberCount, refusals })
    const started = Object.fromEntries(storyKinds.map((kind) => [kind, 0])) as Record<StoryKind, number>

    const agenda = new Agenda()
    let sequence = 0
    let nextArrivalMs = settings.startAt as number
    const run = (step: Step) =>
      step.pipe(
        Effect.catchTag("Rejection", (refusal) => {
          world.refused(refusal.code)
          return Effect.succeed([])
        }),
      )

    const simulate = Effect.gen(function* () {
      while (recording.eventsWritten() < settings.events) {
        const due = agenda.peek()
        if (due === undefined || nextArrivalMs <= due.atMs) {
          clock.advanceTo(nextArrivalMs)
          const kind = random.weighted(settings.mix)
          started[kind]++
          agenda.push({ atMs: nextArrivalMs, sequence: sequence++, step: stories[kind](world) })
          nextArrivalMs += random.exponentialMs(meanArrivalGapMs)
          continue
        }
        agenda.pop()
        clock.advanceTo(due.atMs)
        for (const next of yield* run(due.step))
          agenda.push({ atMs: clock.nowMs + next.afterMs, sequence: sequence++, step: next.step })
      }
    })

    yield* simulate.pipe(
      Effect.provide(layerSandboxMemberDirectory(world.members)),
      Effect.provideService(EventStore, recording.store),
      Effect.provideService(Clock.Clock, clock),
    )
    return {
      seed: settings.seed,
      events: recording.eventsWritten(),
      storiesStarted: started,
      refusals: Object.fromEntries([...refusals].sort(([a], [b]) => a.localeCompare(b))),
      startedAt: settings.startAt,
      endedAt: timestamp(clock.nowMs),
    }
  })
