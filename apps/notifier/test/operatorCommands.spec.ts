/**
 * The operator's commands as an operator runs them (`main.ts show` and
 * `resend`, child processes): what they answer for a notify_id the store
 * does not hold, and for a store that is not there.
 */

import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { it } from "@effect/vitest"
import { EventStore, handleCommand, newMasterKey } from "@mizan/eventsourcing"
import type { Timestamp } from "@mizan/kernel"
import { Notification } from "@mizan/notification"
import { makeSqliteEventStore } from "@mizan/store-sqlite"
import { writeMasterKeyFile } from "@mizan/stores"
import { Effect, Layer } from "effect"
import { afterAll, describe, expect } from "vitest"

const mainPath = join(import.meta.dirname, "..", "src", "main.ts")
const dir = mkdtempSync(join(tmpdir(), "mizan-notifier-operator-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
// The master key file the gateway would have made beside the store.
const masterKeyFile = join(dir, "master-keys.json")
writeMasterKeyFile(masterKeyFile, [newMasterKey()])

/** `main.ts` as the operator runs it, in a child process: what it exits with and writes. */
const runMain = (args: ReadonlyArray<string>, store: string, env: Readonly<Record<string, string>> = {}) =>
  Effect.callback<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((resume) => {
    const child = execFile(
      process.execPath,
      [mainPath, ...args],
      { env: { ...process.env, MIZAN_STORE: store, MIZAN_MASTER_KEY_FILE: masterKeyFile, ...env } },
      (error, stdout, stderr) =>
        resume(
          Effect.succeed({
            code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
            stdout,
            stderr,
          }),
        ),
    )
    return Effect.sync(() => child.kill())
  })

describe("the command line", () => {
  it.effect("says in its first line what is wrong, then the usage, with 2", () =>
    Effect.gen(function* () {
      const store = `sqlite:${join(dir, "never-opened.db")}`
      const refusals: ReadonlyArray<readonly [ReadonlyArray<string>, Record<string, string>, string]> = [
        [["run"], { MIZAN_NOTIFIER_MODE: "prod" }, 'MIZAN_NOTIFIER_MODE must be production or sandbox, not "prod"'],
        [["bogus"], {}, 'unknown command "bogus"'],
        [[], {}, "no command given"],
        [["show"], {}, "show needs a NOTIFY_ID"],
        [["resend", "N-1"], {}, "resend needs a NOTIFY_ID and --by OPERATOR"],
      ]
      for (const [args, env, reason] of refusals) {
        const run = yield* runMain(args, store, env)
        expect([run.code, run.stderr.split("\n")[0]]).toEqual([2, reason])
        expect(run.stderr).toContain("usage:")
      }
      expect(existsSync(join(dir, "never-opened.db"))).toBe(false)
    }),
  )

  it.effect("run refuses a service private key file that does not read, naming it, its setting and why", () =>
    Effect.gen(function* () {
      const store = `sqlite:${join(dir, "never-opened.db")}`
      const run = yield* runMain(["run"], store, { MIZAN_SERVICE_PRIVATE_KEY_FILE: dir })
      expect([run.code, run.stderr]).toEqual([
        2,
        `the service's private key ${dir} (MIZAN_SERVICE_PRIVATE_KEY_FILE) does not read: is a folder, not a file\n`,
      ])
      expect(existsSync(join(dir, "never-opened.db"))).toBe(false)
    }),
  )
})

describe("the operator's commands", () => {
  it.effect("refuse another store's master key file, naming it and its setting, with 2", () =>
    Effect.gen(function* () {
      const storePath = join(dir, "keyed.db")
      yield* Effect.scoped(makeSqliteEventStore(storePath))
      const store = `sqlite:${storePath}`
      // The first open seals the store's keyed-ids secret under masterKeyFile's key.
      expect((yield* runMain(["show", "N-1"], store)).stderr).toContain("no notification N-1")
      const otherKeyFile = join(dir, "other-master-keys.json")
      writeMasterKeyFile(otherKeyFile, [newMasterKey()])
      const shown = yield* runMain(["show", "N-1"], store, { MIZAN_MASTER_KEY_FILE: otherKeyFile })
      expect(shown.code).toBe(2)
      expect(shown.stderr).toContain(
        `the master key file ${otherKeyFile} (MIZAN_MASTER_KEY_FILE) does not open the store's data keys`,
      )
    }),
  )

  it.effect("show says the store holds no such notification, with 2", () =>
    Effect.gen(function* () {
      const storePath = join(dir, "mizan.db")
      yield* Effect.scoped(makeSqliteEventStore(storePath))
      const shown = yield* runMain(["show", "N-UNKNOWN"], `sqlite:${storePath}`)
      expect(shown.code).toBe(2)
      expect(shown.stderr.trim()).toBe(
        "no notification N-UNKNOWN in the store (give the notify_id as the merchant received it)",
      )
    }),
  )

  it.effect(
    "show lists every attempt with its time, HTTP status or error, and the start of the merchant's answer",
    () =>
      Effect.gen(function* () {
        const storePath = join(dir, "history.db")
        const notifyId = "a3f1c2d4e5b60718293a4b5c6d7e8f90"
        const at = (minute: number) => Date.UTC(2026, 10, 21, 9, minute) as Timestamp
        const commands: Array<Notification.Command> = [
          {
            _tag: "Schedule",
            notifyId,
            merchantId: "M1",
            notifyUrl: "https://merchant.example/notify",
            orderKey: "acquireOrder",
            order: { orderNo: "2026112100000001", merchantOrderNo: "ORD-1", status: "SUCCESS" },
            orderingKey: "acquiring-M1-ORD-1",
            sourceEventId: "0d6c9c2e-6b8f-4f57-9d4e-2d7f1c1b0a11",
            sourcePosition: 41n,
            at: at(0),
          },
          {
            _tag: "RecordAttempt",
            at: at(0),
            outcome: { _tag: "HttpStatus", statusCode: 502, answerStart: "Bad Gateway" },
          },
          { _tag: "RecordAttempt", at: at(2), outcome: { _tag: "BadAnswer", statusCode: 200, answerStart: "FAIL" } },
          { _tag: "RecordAttempt", at: at(12), outcome: { _tag: "Timeout", afterMs: 10_000 } },
          { _tag: "RecordAttempt", at: at(22), outcome: { _tag: "ConnectionFailed", code: "ECONNREFUSED" } },
          { _tag: "RecordAttempt", at: at(82), outcome: { _tag: "Delivered", statusCode: 200 } },
        ]
        yield* Effect.forEach(commands, (command) =>
          handleCommand(Notification.aggregate, Notification.streamId(notifyId), command),
        ).pipe(Effect.provide(Layer.effect(EventStore, makeSqliteEventStore(storePath))))
        const shown = yield* runMain(["show", notifyId], `sqlite:${storePath}`)
        expect([shown.code, shown.stderr]).toEqual([0, ""])
        expect(shown.stdout.slice(shown.stdout.indexOf("history"))).toBe(
          [
            "history, on the merchant's time:",
            "  2026-11-21T09:00:00.000Z  scheduled, to https://merchant.example/notify",
            '  2026-11-21T09:00:00.000Z  attempt 1 of round 1: HTTP 502: "Bad Gateway"',
            '  2026-11-21T09:02:00.000Z  attempt 2 of round 1: HTTP 200 without the acknowledgement: "FAIL"',
            "  2026-11-21T09:12:00.000Z  attempt 3 of round 1: no answer within 10000 ms",
            "  2026-11-21T09:22:00.000Z  attempt 4 of round 1: connection failed (ECONNREFUSED)",
            "  2026-11-21T10:22:00.000Z  attempt 5 of round 1: delivered (HTTP 200)",
            "",
          ].join("\n"),
        )
      }),
  )

  it.effect("show and resend read only a store that exists, and create none, with 2", () =>
    Effect.gen(function* () {
      const missingPath = join(dir, "mistyped.db")
      const shown = yield* runMain(["show", "N-1"], `sqlite:${missingPath}`)
      expect(shown.code).toBe(2)
      expect(shown.stderr.trim()).toBe(
        `cannot read notification N-1: Unavailable: no store at ${missingPath}: the file does not exist, and is not created to be read (check the store setting)`,
      )
      const resent = yield* runMain(["resend", "N-1", "--by", "ops@example.com"], `sqlite:${missingPath}`)
      expect(resent.code).toBe(2)
      expect(resent.stderr.trim()).toMatch(/^not resent: Unavailable: no store at /)
      expect(existsSync(missingPath)).toBe(false)
    }),
  )

  it.effect(
    "answers --help with the usage and 0, and an unknown option in one line and 2",
    () =>
      Effect.gen(function* () {
        const store = `sqlite:${join(dir, "help.db")}`
        const help = yield* runMain(["show", "--help"], store)
        expect([help.code, help.stderr]).toEqual([0, ""])
        expect(help.stdout).toContain("npx node apps/notifier/src/main.ts resend NOTIFY_ID --by OPERATOR")
        const unknown = yield* runMain(["show", "N-1", "--verbose"], store)
        expect([unknown.code, unknown.stderr]).toEqual([
          2,
          "mizan-notifier: unknown option --verbose; --help for usage\n",
        ])
      }),
    30_000,
  )
})
