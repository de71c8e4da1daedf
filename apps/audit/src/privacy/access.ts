/** `access`: what the store holds on a data subject, printed as text or JSON. */

import { Effect } from "effect"
import { type CliIo, exitCodes, ioWrite } from "../common/commandIo.ts"
import { describeStore, type StoreSetting } from "../common/stores.ts"
import { accessFindsNothing, accessJson, accessText } from "./accessOutput.ts"
import { refuseMissingStream } from "./forget.ts"
import { type SubjectTarget, subjectAccess } from "./subjectAccess.ts"

/** What the store holds on a data subject (a subject access request), its data opened with the master key. */
export const accessCommand = Effect.fn("Audit.access")(function* (
  io: CliIo,
  store: StoreSetting,
  subject: SubjectTarget,
  json: boolean,
) {
  yield* refuseMissingStream(subject)
  const access = yield* subjectAccess(subject, { storeName: describeStore(store) })
  yield* ioWrite(io)(json ? accessJson(access) : accessText(access, subject))
  return accessFindsNothing(access) ? exitCodes.nothingHeld : exitCodes.ok
})
