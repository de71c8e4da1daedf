/**
 * The operator's commands as an operator runs them (`main.ts show` and
 * `resend`, child processes): what they answer for a notify_id the store
 * does not hold, and for a store that is not there.
 */
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeSqliteEventStore } from "@mizan/store-sqlite"
import { Effect } from "effect"
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
    const storePath = join(dir, "mizan.db")
    await Effect.runPromise(Effect.scoped(makeSqliteEventStore(storePath)))
    const shown = await runMain(["show", "N-UNKNOWN"], `sqlite:${storePath}`)
    expect(shown.code).toBe(2)
    expect(shown.stderr.trim()).toBe(
      "no notification N-UNKNOWN in the store (give the notify_id as the merchant received it)",
    )
  })

  it("show and resend read only a store that exists, and create none, with 2", async () => {
    const missingPath = join(dir, "mistyped.db")
    const shown = await runMain(["show", "N-1"], `sqlite:${missingPath}`)
    expect(shown.code).toBe(2)
    expect(shown.stderr.trim()).toBe(
      `cannot read notification N-1: Unavailable: no store at ${missingPath}: the file does not exist, and is not created to be read (check the store setting)`,
    )
    const resent = await runMain(["resend", "N-1", "--by", "ops@example.com"], `sqlite:${missingPath}`)
    expect(resent.code).toBe(2)
    expect(resent.stderr.trim()).toMatch(/^not resent: Unavailable: no store at /)
    expect(existsSync(missingPath)).toBe(false)
  })

  it("answers --help with the usage and 0, and an unknown option in one line and 2", { timeout: 30_000 }, async () => {
    const store = `sqlite:${join(dir, "help.db")}`
    const help = await runMain(["show", "--help"], store)
    expect([help.code, help.stderr]).toEqual([0, ""])
    expect(help.stdout).toContain("main.ts resend NOTIFY_ID --by OPERATOR")
    const unknown = await runMain(["show", "N-1", "--verbose"], store)
    expect([unknown.code, unknown.stderr]).toEqual([2, "mizan-notifier: unknown option --verbose; --help for usage\n"])
  })
})
