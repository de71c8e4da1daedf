/**
 * Work that one process at a time does among all the processes on one store
 * (the notifier's deliveries: two notifiers would each deliver every
 * notification). The store is the arbiter, never a protocol of our own:
 * PostgreSQL holds an advisory lock for the holder's session, SQLite an
 * exclusive lock on a file beside the store. Either is freed by the store
 * when the holder's process dies, so a standby takes over within its poll
 * interval; the one attempt in flight at that moment may be made twice.
 */
import { Context, Effect, type Scope, Semaphore } from "effect"
import type { StoreError } from "./events.ts"

export class ExclusiveWork extends Context.Service<
  ExclusiveWork,
  {
    /**
     * Waits until this process is the one doing `name`, then holds it until
     * the scope closes. A process that dies holding it loses it.
     */
    readonly hold: (name: string) => Effect.Effect<void, StoreError, Scope.Scope>
  }
>()("@mizan/eventsourcing/ExclusiveWork") {}

/** For a store only one process opens (the memory store): one holder at a time within the process. */
export const inProcessExclusiveWork = (): ExclusiveWork["Service"] => {
  const semaphores = new Map<string, Semaphore.Semaphore>()
  return ExclusiveWork.of({
    hold: (name) => {
      const semaphore = semaphores.get(name) ?? Semaphore.makeUnsafe(1)
      semaphores.set(name, semaphore)
      return Semaphore.takeScoped(semaphore, 1).pipe(Effect.asVoid)
    },
  })
}

/**
 * `work` done while this process holds `lock` (`ExclusiveWork`), waiting
 * its turn first; the hold ends with the work. Under `restartedOnFailure`
 * the turn is awaited again at each start, so a standby may take over
 * meanwhile.
 */
export const heldExclusively = <A, E, R>(
  lock: string,
  work: Effect.Effect<A, E, R>,
): Effect.Effect<A, E | StoreError, Exclude<R, Scope.Scope> | ExclusiveWork> =>
  Effect.scoped(
    Effect.gen(function* () {
      yield* (yield* ExclusiveWork).hold(lock)
      return yield* work
    }),
  )
