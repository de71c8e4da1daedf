/**
 * The operator's commands as an operator runs them (`main.ts show` and
 * `resend`, child processes): what they answer for a notify_id the store
 * does not hold, and for a store that does not open.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const mainPath = join(import.meta.dirname, "..", "src", "main.ts")
const dir = mkdtempSync(join(tmpdir(), "mizan-notifier-operator-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const runMain = (args: ReadonlyArray<string>, store: string) =>
  new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((done) =>
    execFile(
      process.execPath,
      [mainPath, ...args],
      { env: { ...process.env, MIZAN_STORE: store } },
      (error, stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr }),
    ),
  )

describe("the operator's commands", () => {
  it("show says the store holds no such notification, with 2", async () => {
    const shown = await runMain(["show", "N-UNKNOWN"], `sqlite:${join(dir, "mizan.db")}`)
    expect(shown.code).toBe(2)
    expect(shown.stderr.trim()).toBe(
      "no notification N-UNKNOWN in the store (give the notify_id as the merchant received it)",
    )
  })

  it("show and resend say in one line that the store does not open, with 2", async () => {
    const unopenable = `sqlite:${join(dir, "no-such-folder", "mizan.db")}`
    const shown = await runMain(["show", "N-1"], unopenable)
    expect(shown.code).toBe(2)
    expect(shown.stderr.trim()).toMatch(/^cannot read notification N-1: Unavailable: opening the event store at /)
    const resent = await runMain(["resend", "N-1", "--by", "ops@example.com"], unopenable)
    expect(resent.code).toBe(2)
    expect(resent.stderr.trim()).toMatch(/^not resent: Unavailable: opening the event store at /)
  })
})
