/**
 * `forget`: a data subject's keys destroyed, so that every field sealed
 * under them reads [forgotten] (the sealed store's `Sealing.forget`), and
 * what the operator is told of it.
 */

import { type ForgetOutcome, Sealing } from "@mizan/eventsourcing"
import { Effect } from "effect"
import { type CliIo, exitCodes, ioWrite } from "../common/commandIo.ts"
import { isoTime } from "../common/format.ts"
import { AuditError } from "../common/stores.ts"
import { streamExists } from "../common/streamExists.ts"
import { nothingHeldOf } from "./accessOutput.ts"
import type { SubjectTarget } from "./subjectAccess.ts"

/** A misspelt --stream would find no key and read as a payer already forgotten, or never held. */
export const refuseMissingStream = Effect.fn("Audit.refuseMissingStream")(function* (subject: SubjectTarget) {
  if (subject._tag === "OfStream" && !(yield* streamExists(subject.streamId)))
    return yield* new AuditError({
      detail: `the store holds no stream ${subject.streamId}: name the order's stream as show names it`,
    })
})

export const forgetCommand = Effect.fn("Audit.forget")(function* (io: CliIo, subject: SubjectTarget, by: string) {
  const sealing = yield* Sealing
  yield* refuseMissingStream(subject)
  const outcome = yield* subject._tag === "ByValue"
    ? sealing.forget(subject.kind, subject.value, by)
    : sealing.forgetOfStream(subject.kind, subject.streamId, by)
  yield* ioWrite(io)(`${forgetAnswer(subject, outcome, by)}\n`)
  return outcome.keysDestroyed === 0 && outcome.forgottenBefore === undefined ? exitCodes.nothingHeld : exitCodes.ok
})

/**
 * What a forget tells the operator. A subject forgotten before and one the
 * store never held are told apart: a misspelt VALUE (a card number with its
 * dashes) names a subject nobody has, and read as "already forgotten" it
 * let the officer close a request whose data still reads in clear.
 */
const forgetAnswer = (subject: SubjectTarget, outcome: ForgetOutcome, by: string): string => {
  if (outcome.keysDestroyed > 0)
    return `forgot ${outcome.subjectId}: ${outcome.keysDestroyed} data key(s) destroyed, recorded as by ${by}`
  if (outcome.forgottenBefore !== undefined)
    return `${outcome.subjectId} was forgotten already, at ${isoTime(outcome.forgottenBefore.at)} by ${outcome.forgottenBefore.by}: nothing changed`
  return nothingHeldOf(subject, outcome.subjectId, ": nothing changed")
}
