/**
 * Background work that outlives a store outage. A service answers again
 * once its store does (PostgreSQL restarting, a failover); so must the work
 * it runs beside (the notifier, the head signer, the expiry sweep), in
 * whichever process runs it, rather than stay stopped for the process's
 * life. Starting one again is as safe as restarting the process, since each
 * resumes from the store.
 */
import { Effect, Schedule } from "effect"

/** How long work waits to start again after the store failed it: a second, doubling up to half a minute. */
export const restartDelays = Schedule.min([Schedule.exponential("1 second"), Schedule.spaced("30 seconds")])

/** `work`, started again on `restartDelays` whenever the store fails it; a defect stops it for good. */
export const restartedOnFailure = <A, E, R>(name: string, work: Effect.Effect<A, E, R>) =>
  work.pipe(
    Effect.tapError((error) => Effect.logError(`the ${name} stopped; it starts again when the store answers`, error)),
    Effect.retry(restartDelays),
    Effect.tapDefect((defect) => Effect.logError(`the ${name} stopped`, defect)),
  )
