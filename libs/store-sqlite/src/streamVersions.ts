/**
 * The committed version and last chain hash of recently written streams, so
 * that the writer need not ask SQLite for a stream's head at every append
 * (a fifth of an append's cost under group commit). The cache is only as
 * good as the knowledge that nobody else wrote: `PRAGMA data_version`
 * changes when another connection (another process) commits to the file,
 * and the writer checks it at the start of every write transaction, holding
 * the write lock, and then drops the cache. The unique index on (stream_id,
 * stream_version) stays behind it as the second guard.
 */
import type { DatabaseSync } from "node:sqlite"
import { emptyStreamHead, type StreamHead, StreamHeadCache } from "@mizan/eventsourcing"

export type { StreamHead } from "@mizan/eventsourcing"

export interface StreamVersions {
  /** Call first in every write transaction: forgets everything when another connection has committed since. */
  readonly beginTransaction: () => void
  /** The stream's committed head (version 0 for a stream never written). */
  readonly committedHead: (streamId: string) => StreamHead
  /** Records the heads a transaction left, once it has committed. */
  readonly committed: (heads: ReadonlyMap<string, StreamHead>) => void
  /** Forgets everything (after a failed transaction, or a version the cache got wrong). */
  readonly forget: () => void
}

export const makeStreamVersions = (db: DatabaseSync, maxStreams: number): StreamVersions => {
  const dataVersion = db.prepare("PRAGMA data_version")
  const lookup = db.prepare(
    "SELECT stream_version AS version, chain_hash AS chainHash FROM events WHERE stream_id = ? ORDER BY stream_version DESC LIMIT 1",
  )
  const cache = new StreamHeadCache(maxStreams)
  let seenDataVersion: unknown

  return {
    beginTransaction: () => {
      const current = dataVersion.get()?.data_version
      if (current !== seenDataVersion) cache.forget()
      seenDataVersion = current
    },
    committedHead: (streamId) => {
      const known = cache.get(streamId)
      if (known !== undefined) return known
      const head = (lookup.get(streamId) as StreamHead | undefined) ?? emptyStreamHead
      cache.remember(streamId, head)
      return head
    },
    committed: (written) => {
      for (const [streamId, head] of written) cache.remember(streamId, head)
    },
    forget: () => cache.forget(),
  }
}
