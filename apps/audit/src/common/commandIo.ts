/**
 * What every command of the command line answers and writes to: its exit
 * status, the streams and environment it is given, and the shape of one
 * command's run once its store is open. A leaf: the commands in each
 * folder and the command line (cli/cli.ts) import it.
 */

import type { EventStore, StoreError } from "@mizan/eventsourcing"
import type { Effect } from "effect"
import type { AuditError } from "./stores.ts"
import { chunkWriter, type WriteChunk } from "./writeChunk.ts"

/**
 * `nothingHeld`: the store holds no data of the subject named, nor ever
 * forgot it. Apart from 0, so that a script that forgets a person tells
 * "done" from "nobody by that value" (a card number with its dashes).
 */
export const exitCodes = { ok: 0, broken: 1, failed: 2, nothingHeld: 3 } as const
export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes]

export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { readonly isTTY?: boolean }
  readonly stderr: NodeJS.WritableStream
  readonly env: Readonly<Record<string, string | undefined>>
  /** Where relative paths start from: the directory the command was started in. */
  readonly cwd: string
}

/** What one command does, once its store is open. */
export type Run = Effect.Effect<ExitCode, AuditError | StoreError, EventStore>

/** Writes to the command's standard output, a write that fails an AuditError naming it. */
export const ioWrite =
  (io: CliIo): WriteChunk =>
  (text) =>
    chunkWriter(io.stdout, "standard output")(text)
