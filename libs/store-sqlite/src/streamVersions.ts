/**
 * The committed version of recently written streams, so that the writer
 * need not ask SQLite for a stream's version at every append (a fifth of an
 * append's cost under group commit). The cache is only as good as the
 * knowledge that nobody else wrote: `PRAGMA data_version` changes when
 * another connection (another process) commits to the file, and the writer
 * checks it at the start of every write transaction, holding the write lock,
 * and then drops the cache. The unique index on (stream_id, stream_version)
 * stays behind it as the second guard.
 */
import type { DatabaseSync } from "node:sqlite"

export interface StreamVersions {
  /** Call first in every write transaction: forgets everything when another connection has committed since. */
  readonly beginTransaction: () => void
  /** The stream's committed version (0 for a stream never written). */
  readonly committedVersion: (streamId: string) => number
  /** Records the versions a transaction left, once it has committed. */
  readonly committed: (versions: ReadonlyMap<string, number>) => void
  /** Forgets everything (after a failed transaction, or a version the cache got wrong). */
  readonly forget: () => void
}

export const makeStreamVersions = (db: DatabaseSync, maxStreams: number): StreamVersions => {
  const dataVersion = db.prepare("PRAGMA data_version")
  const lookup = db.prepare("SELECT coalesce(max(stream_version), 0) AS version FROM events WHERE stream_id = ?")
  // A Map iterates in insertion order; re-inserting on every use keeps the least recently used first, to evict.
  const versions = new Map<string, number>()
  let seenDataVersion: unknown

  const remember = (streamId: string, version: number) => {
    versions.delete(streamId)
    versions.set(streamId, version)
    if (versions.size > maxStreams) versions.delete(versions.keys().next().value!)
  }

  return {
    beginTransaction: () => {
      const current = dataVersion.get()?.data_version
      if (current !== seenDataVersion) versions.clear()
      seenDataVersion = current
    },
    committedVersion: (streamId) => {
      const known = versions.get(streamId)
      if (known !== undefined) return known
      const version = (lookup.get(streamId) as { version: number }).version
      remember(streamId, version)
      return version
    },
    committed: (written) => {
      for (const [streamId, version] of written) remember(streamId, version)
    },
    forget: () => versions.clear(),
  }
}
