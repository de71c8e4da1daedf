import { Effect, Option, Stream } from "effect"
import type { FollowOptions, ReadAllOptions } from "./EventStore.ts"
import type { GlobalPosition, RecordedEvent, StoreError } from "./events.ts"

export const followPageSizeEventsDefault = 1_000

/**
 * Wakes followers when events may have been appended. An adapter signals it
 * after each commit in this process; `waitMs` bounds each wait so that
 * appends by other processes are found by polling.
 */
export class AppendSignal {
  private waiters: Array<() => void> = []
  private notified = 0

  /** How many times it was notified: a follower notes it before a read, so a notify during the read is not missed. */
  get generation(): number {
    return this.notified
  }

  notify(): void {
    this.notified += 1
    const waiters = this.waiters
    this.waiters = []
    for (const wake of waiters) wake()
  }

  /**
   * Resolves at the next notify, or after `waitMs`, whichever comes first;
   * at once when a notify came since `seenGeneration`.
   */
  wait(waitMs: number, seenGeneration?: number): Effect.Effect<void> {
    return Effect.callback<void>((resume) => {
      if (seenGeneration !== undefined && seenGeneration !== this.notified) {
        resume(Effect.void)
        return
      }
      const wake = () => {
        clearTimeout(timer)
        resume(Effect.void)
      }
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake)
        resume(Effect.void)
      }, waitMs)
      this.waiters.push(wake)
      return Effect.sync(() => {
        clearTimeout(timer)
        this.waiters = this.waiters.filter((w) => w !== wake)
      })
    })
  }
}

/**
 * `follow` built on `readAll`: read pages until caught up, then wait for the
 * signal (or the poll interval) and read again. Shared by every adapter.
 */
export const followByReading =
  (
    readAll: (options: ReadAllOptions) => Effect.Effect<ReadonlyArray<RecordedEvent>, StoreError>,
    signal: AppendSignal,
    pollIntervalMs: number,
  ) =>
  (after: GlobalPosition, options?: FollowOptions): Stream.Stream<RecordedEvent, StoreError> => {
    const maxCount = options?.pageSizeEvents ?? followPageSizeEventsDefault
    return Stream.paginate(after, (position) =>
      Effect.suspend(() => {
        const seen = signal.generation
        return Effect.flatMap(readAll({ after: position, maxCount }), (page) => {
          const last = page.at(-1)
          if (last !== undefined) return Effect.succeed([page, Option.some(last.globalPosition)] as const)
          return Effect.as(signal.wait(pollIntervalMs, seen), [page, Option.some(position)] as const)
        })
      }),
    )
  }
