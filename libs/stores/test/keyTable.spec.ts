import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { it } from "@effect/vitest"
import { SubjectKeys } from "@mizan/eventsourcing"
import { expectKeyAnsweredOnceDurable } from "@mizan/eventsourcing/testing"
import { Context, Effect, Layer, Result } from "effect"
import { describe, expect, vi } from "vitest"
import { layerKeyTableOf, parseStoreSetting } from "../src/index.ts"

/**
 * Node's `fdatasync`, which the SQLite store syncs its write-ahead log with,
 * behind a gate: the key table is seen from outside, as the gateway gets it,
 * down to the disk. Its own LogSync, which store-sqlite's tests gate, is not
 * reachable through the public layer; so Node's call is mocked here, in the
 * test file, where vi.mock is hoisted above the imports it must precede.
 */
const datasyncs = await vi.hoisted(async () => (await import("@mizan/eventsourcing/testing")).heldDurability())

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>()
  const fdatasync = (fd: number, done: (error: NodeJS.ErrnoException | null) => void) =>
    datasyncs.pass(() => fs.fdatasync(fd, done))
  return { ...fs, fdatasync }
})

const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "mizan-key-table-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true })),
)

const newKey = { keyId: "k1", subjectId: "card:a", wrappedKey: "d3JhcHBlZA==", masterKeyId: "mk-1", createdAt: 1 }

describe("a KurrentDB setting's SQLite key table", () => {
  // Under "normal" no sync is due for a store's own commits: only a key table alone asks for one there.
  it.live.each(["keyTable=sqlite:keys.db", "keyTable=sqlite:keys.db?synchronous=normal"])(
    "answers a new data key only once a sync of its file is done (%s): no append there will carry it to disk",
    (keyTableParameter) =>
      Effect.gen(function* () {
        const setting = parseStoreSetting(`kurrentdb://node:2113?tls=false&${keyTableParameter}`, yield* tempDir)
        const keyTable = Result.isSuccess(setting) && setting.success._tag === "KurrentDb" && setting.success.keyTable
        if (!keyTable) return expect.fail(`${keyTableParameter} names no key table`)
        // The level reaches the key table's layer: "normal" is the case a store's own commits would not sync at.
        expect(keyTable._tag === "Sqlite" && keyTable.synchronous).toBe(
          keyTableParameter.endsWith("normal") ? "normal" : undefined,
        )
        const keys = Context.get(yield* Layer.build(layerKeyTableOf(keyTable)), SubjectKeys)
        yield* expectKeyAnsweredOnceDurable(keys, newKey, datasyncs.hold())
      }),
  )
})
