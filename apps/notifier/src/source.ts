import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import type { EventStore, RecordedEvent, StoreError } from "@mizan/eventsourcing"
import { NotificationDetails } from "@mizan/notification"
import { type Effect, type Option, Schema } from "effect"

const { merchantId, notifyUrl, orderKey, order, orderingKey } = NotificationDetails.fields

/**
 * A status change the merchant is told about. What to announce, and the
 * order object as the query operation shows it (JSON, as of this status
 * change), is the gateway's knowledge: the notifier only delivers.
 * `orderingKey` is the order's stream id: notifications with the same key go
 * out one at a time, in the order of the events that announced them.
 */
export const Announcement = Schema.Struct({ merchantId, notifyUrl, orderKey, order, orderingKey })
export type Announcement = typeof Announcement.Type

/**
 * Says which recorded events announce a status change. It sees every event of
 * the global log except the notifier's own, in log order, and may read the
 * store (to find an order's notifyUrl, say).
 */
export interface NotificationSource {
  readonly describe: (event: RecordedEvent) => Effect.Effect<Option.Option<Announcement>, StoreError, EventStore>
}

/** Why a notification source could not be loaded, in a sentence. */
export class SourceNotLoaded extends Error {
  override readonly name = "SourceNotLoaded"
}

/**
 * Loads the module `specifier` names and answers its `notificationSource`:
 * a file path (relative paths start from `cwd`, as the README writes
 * `apps/gateway/src/announce/index.ts`), else a package specifier.
 */
export const loadNotificationSource = async (specifier: string, cwd: string): Promise<NotificationSource> => {
  const path = resolve(cwd, specifier)
  const fileExists = existsSync(path)
  const namesAFile = /^[./]/.test(specifier) || /\.[cm]?[jt]s$/.test(specifier)
  if (namesAFile && !fileExists) throw new SourceNotLoaded(`cannot load ${specifier}: there is no file ${path}`)
  let module: { readonly notificationSource?: NotificationSource }
  try {
    module = await import(fileExists ? pathToFileURL(path).href : specifier)
  } catch (error) {
    throw new SourceNotLoaded(
      `cannot load ${specifier}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    )
  }
  if (typeof module.notificationSource?.describe !== "function")
    throw new SourceNotLoaded(`${specifier} does not export a notificationSource with describe(event)`)
  return module.notificationSource
}
