/**
 * The merchant directory follows the configuration file: a merchant that
 * `npm run merchant -- add` registers while the gateway runs (or a key, a
 * grant, a fee or a rate limit changed by hand) is served within
 * `configCheckIntervalMs`, without a restart. Only the merchants are
 * re-read; every other setting takes effect at the next start.
 *
 * The file is polled (its size, modification time and inode) rather than
 * watched: a poll sees a file replaced by a rename, as the tool writes it,
 * and works on every file system, where inotify misses changes on some
 * mounts; a `stat` a second costs nothing. Polling on its own schedule,
 * not on an unknown Partner-Id, also keeps an unknown id's refusal as fast
 * as a forged signature's.
 */
import { statSync } from "node:fs"
import { Effect, Schedule } from "effect"
import { ConfigError } from "../config/config.ts"
import { decodeConfigFile } from "../config/configFile.ts"
import type { MerchantDirectory } from "./merchants.ts"

/** How often the file is looked at: a second is what a person running `merchant add` then a request waits at most. */
export const configCheckIntervalMs = 1_000

/** What tells one version of the file from the next; undefined while it is missing (being replaced, say). */
const versionOf = (path: string): string | undefined => {
  try {
    const stat = statSync(path)
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`
  } catch {
    return undefined
  }
}

/** Loads the file's merchants into the directory; a file that does not load leaves the directory as it was, said why. */
const reload = (path: string, directory: MerchantDirectory) =>
  Effect.suspend(() => {
    try {
      directory.replaceWith(decodeConfigFile(path).merchants)
    } catch (error) {
      const why = error instanceof ConfigError ? error.message : String(error)
      return Effect.logWarning(
        `${path} changed but does not load, so the gateway keeps its ${directory.size()} merchant(s): ${why}`,
      )
    }
    return Effect.logInfo(`merchants re-read from ${path}: ${directory.size()} merchant(s)`)
  })

/** Re-reads the merchants of `path` whenever the file changes, for as long as the scope lives. */
export const followMerchants = (path: string, directory: MerchantDirectory) => {
  let seen = versionOf(path)
  const check = Effect.suspend(() => {
    const version = versionOf(path)
    if (version === undefined || version === seen) return Effect.void
    seen = version
    return reload(path, directory)
  })
  return Effect.forkScoped(Effect.repeat(check, Schedule.spaced(configCheckIntervalMs)))
}
