/**
 * `import`: an export file (exportLog.ts) written into a store, read twice,
 * line by line, never whole. The first pass checks the whole file before
 * anything is written (importCheck.ts); the second writes it
 * (importWrite.ts).
 *
 * The tamper-evident log travels too (docs/architecture.md#a-tamper-evident-log).
 * A head digests the log from its first event in its order, so a file
 * with heads imports only into an empty store, by default one append at a
 * time (concurrent appends may commit in another order).
 *
 * Sealed personal data travels too (docs/architecture.md#sealed-personal-data):
 * keys and sealed events are written as they are, so the chain and the
 * heads still hold. With `seal` (a store written before sealing, exported
 * and imported into a new store), import seals every personal field in
 * clear on the way in: those events are stored otherwise than the file
 * holds them, so their chain is the target's own and the file's signed
 * heads are left behind (the new store's notifier signs new ones).
 */
import type { EventStore, StoreError } from "@mizan/eventsourcing"
import { Effect } from "effect"
import type { AuditError } from "../common/stores.ts"
import { registry } from "../model/registry.ts"
import { checkFile } from "./importCheck.ts"
import { type ImportOptions, type ImportSummary, importDefaults } from "./importOptions.ts"
import { writeFile } from "./importWrite.ts"

export { type ImportOptions, type ImportSummary, importDefaults } from "./importOptions.ts"

/** Checks the export file at `path`, then writes it into the store; refuses (writing nothing) a file that fails a check. */
export const importLog = (
  path: string,
  options: ImportOptions = {},
): Effect.Effect<ImportSummary, AuditError | StoreError, EventStore> =>
  Effect.gen(function* () {
    const checked = yield* checkFile(
      path,
      options.registry ?? registry,
      options.seal === true,
      options.targetName ?? "the target store",
    )
    // Heads digest the file's order: unless told otherwise, keep it exactly, which one append at a time does in any store.
    const inFlight = options.appendsInFlightMax ?? (checked.signedHeads > 0 ? 1 : importDefaults.appendsInFlightMax)
    const { written, appends, headsLeftBehind } = yield* writeFile(path, options, inFlight)
    return {
      events: written,
      streams: checked.streams,
      appends,
      signedHeads: checked.signedHeads - headsLeftBehind,
      keys: checked.keys,
      signedHeadsLeftBehind: headsLeftBehind,
    }
  })
