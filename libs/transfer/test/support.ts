/** Test helpers: digests as the edge makes them, fixed times, and a command runner that records every step. */
import { createHash } from "node:crypto"
import { type Sha256Hex, type Timestamp, timestamp } from "@mizan/kernel"

export const sha256 = (text: string): Sha256Hex => createHash("sha256").update(text, "utf8").digest("hex") as Sha256Hex

export const at = (iso: string): Timestamp => timestamp(Date.parse(iso))

export { eventsOf, runCommands, type Step } from "@mizan/eventsourcing/testing"

/** Repeats each command right after itself: a retry of every request. */
export const withRetries = <A>(commands: ReadonlyArray<A>, retried: ReadonlyArray<boolean>): ReadonlyArray<A> =>
  commands.flatMap((command, i) => (retried[i] === true ? [command, command] : [command]))
