import type { AuditedAggregate } from "../model/registry.ts"

export interface ImportOptions {
  /**
   * Appends to different streams in flight at once (1 keeps the file's exact
   * global order in every store). Default: 32, or 1 for a file with signed
   * heads, which digest that order (the SQLite store keeps it at any number;
   * a store that does not is caught at the next head).
   */
  readonly appendsInFlightMax?: number
  readonly registry?: ReadonlyArray<AuditedAggregate>
  readonly onProgress?: (eventsWritten: number) => void
  /** Seal every personal field the file holds in clear, into an empty store (the file's heads are left behind). */
  readonly seal?: boolean
  /** How refusals name the target store (the command line gives its setting, password masked); default "the target store". */
  readonly targetName?: string
}

export const importDefaults = {
  appendsInFlightMax: 32,
  /** The most events one append carries (the PostgreSQL store takes 65,535; the SQLite store batches 4,096). */
  appendBatchMaxEvents: 1_000,
  /** Appends gathered before they are written together; a chunk never holds two of one stream. */
  chunkMaxAppends: 256,
} as const

export interface ImportSummary {
  readonly events: number
  readonly streams: number
  readonly appends: number
  readonly signedHeads: number
  /** Data keys written to the target's key table. */
  readonly keys: number
  /** The file's signed heads not stored, because sealing changed the events they digest. */
  readonly signedHeadsLeftBehind: number
}
