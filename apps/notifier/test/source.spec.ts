/**
 * Loading the notification source a `main.ts run` process is told of
 * (MIZAN_NOTIFICATION_SOURCE): by a path from the working directory, as the
 * README writes it, by an absolute path, and the clear refusals.
 */
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { loadNotificationSource, SourceNotLoaded } from "../src/index.ts"
import { notificationSource } from "./testSource.ts"

const testSourcePath = join(import.meta.dirname, "testSource.ts")
const repositoryRoot = join(import.meta.dirname, "..", "..", "..")

describe("the notification source", () => {
  it("loads from a path relative to the working directory, as apps/gateway/src/announce/index.ts is written", async () => {
    const source = await loadNotificationSource(relative(repositoryRoot, testSourcePath), repositoryRoot)
    expect(source).toBe(notificationSource)
  })

  it("loads the gateway's announcements by the path the README gives", async () => {
    const source = await loadNotificationSource("apps/gateway/src/announce/index.ts", repositoryRoot)
    expect(typeof source.describe).toBe("function")
  })

  it("loads from an absolute path wherever the process runs", async () => {
    expect(await loadNotificationSource(testSourcePath, "/")).toBe(notificationSource)
  })

  it("says which module it could not load, and which one exports no source", async () => {
    const missing = loadNotificationSource("apps/nowhere/announce.ts", repositoryRoot)
    await expect(missing).rejects.toBeInstanceOf(SourceNotLoaded)
    await expect(missing).rejects.toThrow(
      `cannot load apps/nowhere/announce.ts: there is no file ${join(repositoryRoot, "apps/nowhere/announce.ts")}`,
    )
    await expect(loadNotificationSource("@mizan/no-such-package", repositoryRoot)).rejects.toThrow(
      /^cannot load @mizan\/no-such-package: /,
    )
    await expect(loadNotificationSource(join(import.meta.dirname, "harness.ts"), "/")).rejects.toThrow(
      "does not export a notificationSource with describe(event)",
    )
  })
})
