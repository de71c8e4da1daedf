/**
 * `rotate-master-key`: every data key re-wrapped under a new master key
 * (`@mizan/stores`' `rotateMasterKey`), the old ones retired on request.
 */

import { SubjectKeys } from "@mizan/eventsourcing"
import { rotateMasterKey } from "@mizan/stores"
import { Effect } from "effect"
import { type CliIo, exitCodes, ioWrite } from "../common/commandIo.ts"
import { formatCount } from "../common/format.ts"
import { AuditError } from "../common/stores.ts"

/** Re-wraps the store's data keys under a new master key of the file, and says so. */
export const rotateCommand = Effect.fn("Audit.rotateMasterKey")(function* (
  io: CliIo,
  masterKeyFile: string,
  retire: boolean,
) {
  const keys = yield* SubjectKeys
  const outcome = yield* rotateMasterKey(masterKeyFile, keys, { retire }).pipe(
    Effect.catchTags({
      MasterKeyFileError: (error) =>
        Effect.fail(new AuditError({ detail: `rotating the master key: ${error.detail}` })),
      RewrapError: (error) => Effect.fail(new AuditError({ detail: `rotating the master key: ${error.message}` })),
    }),
  )
  yield* ioWrite(io)(
    `master key ${outcome.masterKeyId} is current: ${formatCount(outcome.rewrapped)} data keys re-wrapped${
      outcome.retired.length === 0 ? "" : `, retired ${outcome.retired.join(", ")}`
    }\n`,
  )
  return exitCodes.ok
})
