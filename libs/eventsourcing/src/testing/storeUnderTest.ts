/**
 * What an adapter's test hands the contract suites (contract.ts,
 * chainContract.ts): the store under test and, for a durable adapter, how to
 * reopen it and hold its durability back. Its own module so that both suites
 * import it and neither imports the other's types.
 */
import type { Effect, Scope } from "effect"
import type { EventStoreShape } from "../EventStore.ts"

export interface StoreUnderTest {
  readonly store: EventStoreShape
  /**
   * For durable adapters: closes this store and opens the same data again,
   * as a restarted process would.
   */
  readonly reopen?: () => Effect.Effect<EventStoreShape, unknown, Scope.Scope>
  /**
   * For adapters that commit first and make the commit durable after (SQLite
   * syncing its log in the thread pool, `syncsAfterCommit`): holds that step
   * back from now until the gate is released.
   */
  readonly holdDurability?: () => Effect.Effect<DurabilityGate>
}

export interface DurabilityGate {
  /** Completes once some commit waits at the gate to become durable. */
  readonly waiting: Effect.Effect<void>
  /** Lets every held and later commit become durable. */
  readonly release: Effect.Effect<void>
}
