import { fileWriteErrorReason } from "@mizan/command-line"
import { Effect } from "effect"
import { AuditError } from "./stores.ts"

/** Writes one chunk of text; fails when the destination does. */
export type WriteChunk = (text: string) => Effect.Effect<void, AuditError>

/**
 * A chunk writer for a Node stream: each chunk waits until the stream has
 * taken it (backpressure); `name` says the destination in a refusal. A pipe
 * whose reader went (EPIPE) fails `readerGone`, which the command line ends
 * without a word.
 */
export const chunkWriter =
  (out: NodeJS.WritableStream, name: string): WriteChunk =>
  (text) =>
    Effect.callback<void, AuditError>((resume) => {
      out.write(text, (error) =>
        resume(
          error === null || error === undefined
            ? Effect.void
            : Effect.fail(
                (error as { code?: unknown }).code === "EPIPE"
                  ? new AuditError({ detail: `${name} was closed by its reader`, readerGone: true })
                  : new AuditError({ detail: `cannot write ${name}: ${fileWriteErrorReason(error)}` }),
              ),
        ),
      )
    })
