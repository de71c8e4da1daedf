import { createHash } from "node:crypto"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { it } from "@effect/vitest"
import {
  EventStore,
  keyRingOfMasterKeys,
  layerMemory,
  makeMemorySubjectKeys,
  newDataKey,
  newMasterKey,
  Sealing,
  type SealingPlan,
  StoreError,
  SubjectKeys,
  type SubjectKeysShape,
} from "@mizan/eventsourcing"
import { Effect, Fiber, Layer } from "effect"
import { describe, expect } from "vitest"
import {
  keyRingOfFile,
  layerKeyFile,
  layerKeyTableOf,
  layerSealed,
  layerStore,
  readMasterKeyFile,
  rotateMasterKey,
  writeMasterKeyFile,
} from "../src/index.ts"

const plan: SealingPlan = {
  events: { CardPaid: [{ kind: "card", identifiedBy: "cardNumber", fields: ["cardNumber", "cardLast4"] }] },
  streams: [],
}

const digestOf = (n: number) =>
  createHash("sha256")
    .update(`41111111${String(n).padStart(8, "0")}`)
    .digest("hex")

/** A folder of the test's own, removed when the test's scope closes. */
const tempDir = (prefix: string) =>
  Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), prefix))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true })),
  )

const sealedSqlite = (dir: string, checkMs = 20) =>
  layerSealed(
    layerStore("sqlite:mizan.db", dir),
    layerKeyFile(join(dir, "master-keys.json"), { createWhenMissing: true, settingName: "masterKeyFile", checkMs }),
    plan,
    { keyCacheMs: 0 },
  )

const pay = (n: number) =>
  Effect.flatMap(EventStore, (store) =>
    store.append(
      `order/${n}`,
      [{ type: "CardPaid", schemaVersion: 1, data: { cardNumber: digestOf(n), cardLast4: "1111" } }],
      "no_stream",
    ),
  )

describe("a key table beside a store that holds events only (KurrentDB's keyTable)", () => {
  it.effect("keeps the data keys in its own file, and forgets there", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir("mizan-key-table-")
      const keyTable = { _tag: "Sqlite", path: join(dir, "keys.db") } as const
      const eventsOnly = Layer.merge(layerMemory, layerKeyTableOf(keyTable))
      const keyFile = layerKeyFile(join(dir, "master-keys.json"), {
        createWhenMissing: true,
        settingName: "masterKeyFile",
      })
      const outcome = yield* Effect.gen(function* () {
        yield* pay(1)
        return yield* (yield* Sealing).forget("card", digestOf(1), "dpo")
      }).pipe(Effect.provide(layerSealed(eventsOnly, keyFile, plan)))
      expect(outcome.keysDestroyed).toBe(1)
      // Opened again, alone: the key table kept the card's key, destroyed, and the secret of the keyed ids.
      const kept = yield* Effect.flatMap(SubjectKeys, (keys) => keys.allKeys("", 10)).pipe(
        Effect.provide(layerKeyTableOf(keyTable, { mustExist: true })),
      )
      expect(
        kept
          .map((key) => ({ subject: key.subjectId.split(":")[0], wrapped: key.wrappedKey !== undefined }))
          .sort((a, b) => String(a.subject).localeCompare(String(b.subject))),
      ).toEqual([
        { subject: "$equality", wrapped: true },
        { subject: "card", wrapped: false },
      ])
    }),
  )
})

describe("the master key file", () => {
  it.effect("is made in sandbox mode, mode 0600, with one 32-byte key", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir("mizan-keys-")
      yield* Effect.scoped(Layer.build(sealedSqlite(dir)))
      const path = join(dir, "master-keys.json")
      expect(statSync(path).mode & 0o777).toBe(0o600)
      expect(readMasterKeyFile(path)).toHaveLength(1)
    }),
  )

  it.effect("is required in production, and the refusal names the setting", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir("mizan-keys-")
      const error = yield* Effect.flip(
        Effect.scoped(
          Layer.build(
            layerKeyFile(join(dir, "missing.json"), { createWhenMissing: false, settingName: "masterKeyFile" }),
          ),
        ),
      )
      expect(error.message).toContain("set masterKeyFile")
    }),
  )

  it.effect("that does not read is refused naming it, its setting and the file system's reason", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir("mizan-keys-")
      const error = yield* Effect.flip(
        Effect.scoped(Layer.build(layerKeyFile(dir, { createWhenMissing: false, settingName: "masterKeyFile" }))),
      )
      expect(error.message).toContain(`cannot read the master key file ${dir} (masterKeyFile): is a folder, not a file`)
    }),
  )

  // A folder this user may not enter is no bar to root, whom the tests may run as: a file that no user can look at
  // (a symbolic link to itself) stands in for it, failing the same look before the read (stat).
  it.effect("that cannot be looked at is refused in the file system's plain words, not as missing", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir("mizan-keys-"), "master-keys.json")
      symlinkSync(path, path)
      const refusal = `cannot read the master key file ${path} (masterKeyFile): too many symbolic links encountered`
      expect(() => keyRingOfFile(path, { settingName: "masterKeyFile" })).toThrow(refusal)
      const error = yield* Effect.flip(
        Effect.scoped(Layer.build(layerKeyFile(path, { createWhenMissing: false, settingName: "masterKeyFile" }))),
      )
      expect(error.message).toContain(refusal)
    }),
  )

  it.effect("that goes away under a running process is refused in plain words at its next look", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir("mizan-keys-"), "master-keys.json")
      writeMasterKeyFile(path, [newMasterKey()])
      const ring = keyRingOfFile(path, { settingName: "masterKeyFile", checkMs: 0 })
      yield* ring.currentMasterKeyId
      rmSync(path)
      const error = yield* Effect.flip(ring.currentMasterKeyId)
      expect(error.message).toContain(`cannot read the master key file ${path} (masterKeyFile): no such file`)
    }),
  )

  it.effect("that is not JSON is told apart from one that does not read", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir("mizan-keys-"), "keys.json")
      writeFileSync(path, "not json")
      expect(() => readMasterKeyFile(path, "masterKeyFile")).toThrow(
        `master key file ${path} (masterKeyFile) is not valid JSON: Unexpected token`,
      )
    }),
  )

  it.effect("refuses a key that is not 32 bytes, naming the entry", () =>
    Effect.gen(function* () {
      const path = join(yield* tempDir("mizan-keys-"), "keys.json")
      writeMasterKeyFile(path, [newMasterKey()])
      const text = readFileSync(path, "utf8").replace(/"key": "[^"]+"/, '"key": "c2hvcnQ="')
      writeFileSync(path, text)
      expect(() => readMasterKeyFile(path)).toThrow("masterKeys[0].key must be 32 bytes in Base64")
    }),
  )
})

describe("master key rotation", () => {
  // Real time: a process's key ring checks its key file against the wall clock (Date.now, which a TestClock does
  // not move), and the rotation's settle is there for that check to see the new key while the writers append.
  it.live(
    "re-wraps every data key while appends continue, loses nothing, and with --retire leaves only the new key",
    () =>
      Effect.gen(function* () {
        const dir = yield* tempDir("mizan-rotation-")
        const path = join(dir, "master-keys.json")
        const outcome = yield* Effect.scoped(
          Effect.gen(function* () {
            const context = yield* Layer.build(sealedSqlite(dir))
            const onStore = <A, E>(effect: Effect.Effect<A, E, EventStore | SubjectKeys>) =>
              Effect.provideContext(effect, context)
            const oldKeyId = readMasterKeyFile(path)[0]?.id
            for (let n = 0; n < 50; n++) yield* onStore(pay(n))
            // Writers keep adding new cards (new data keys) all through the rotation.
            const writer = yield* Effect.forkChild(
              Effect.gen(function* () {
                let n = 50
                while (true) {
                  yield* onStore(pay(n++))
                  yield* Effect.sleep(2)
                }
              }),
            )
            const keys = yield* onStore(SubjectKeys)
            const rotated = yield* rotateMasterKey(path, keys, { retire: true, settleMs: 100 })
            yield* Fiber.interrupt(writer)
            const store = yield* onStore(EventStore)
            const all = yield* store.readAll({ after: -1n, maxCount: 100_000 })
            const live = yield* keys.liveKeys("", 100_000)
            return { rotated, oldKeyId, all, live }
          }),
        )
        expect(outcome.rotated.retired).toEqual([outcome.oldKeyId])
        expect(outcome.rotated.rewrapped).toBeGreaterThanOrEqual(50)
        expect(readMasterKeyFile(path).map((key) => key.id)).toEqual([outcome.rotated.masterKeyId])
        expect(new Set(outcome.live.map((key) => key.masterKeyId))).toEqual(new Set([outcome.rotated.masterKeyId]))
        expect(outcome.all.length).toBeGreaterThan(50)
        // A new process, with only the new master key, opens every event.
        const reread = yield* Effect.scoped(
          Effect.flatMap(Layer.build(sealedSqlite(dir)), (context) =>
            Effect.provideContext(
              Effect.flatMap(EventStore, (store) => store.readAll({ after: -1n, maxCount: 100_000 })),
              context,
            ),
          ),
        )
        expect(reread.length).toBe(outcome.all.length)
        reread.forEach((record) => {
          const n = Number(record.streamId.slice("order/".length))
          expect(record.data).toEqual({ cardNumber: digestOf(n), cardLast4: "1111" })
        })
      }),
  )
})

describe("master key rotation's errors, each by its tag", () => {
  /** A key file in a new folder, and a key table holding one data key wrapped by the file's key. */
  const setUp = Effect.gen(function* () {
    const path = join(yield* tempDir("mizan-rotation-errors-"), "master-keys.json")
    const master = newMasterKey()
    writeMasterKeyFile(path, [master])
    const keys = makeMemorySubjectKeys()
    const { wrapped, masterKeyId } = yield* keyRingOfMasterKeys([master]).wrap(newDataKey())
    yield* keys.addKey({ keyId: "key-1", subjectId: "card:1", wrappedKey: wrapped, masterKeyId, createdAt: 0 })
    return { path, keys }
  })
  const rotate = (path: string, keys: SubjectKeysShape) =>
    Effect.flip(rotateMasterKey(path, keys, { retire: true, settleMs: 0 }))

  it.effect("fails with MasterKeyFileError naming the file when it cannot be read, and touches nothing", () =>
    Effect.gen(function* () {
      const { path, keys } = yield* setUp
      writeFileSync(path, "not json")
      const error = yield* rotate(path, keys)
      expect(error).toMatchObject({ _tag: "MasterKeyFileError", path })
      expect(error.message).toContain(`master key file ${path} is not valid JSON`)
      expect(readFileSync(path, "utf8")).toBe("not json")
    }),
  )

  it.effect("fails with MasterKeyFileError naming the file when it cannot be written", () =>
    Effect.gen(function* () {
      const { path, keys } = yield* setUp
      // The file is written through a temporary file beside it: a folder in its place makes the write fail.
      mkdirSync(`${path}.${process.pid}.tmp`)
      const error = yield* rotate(path, keys)
      expect(error).toMatchObject({ _tag: "MasterKeyFileError", path })
      expect(error.message).toContain(`master key file ${path} cannot be written: is a folder, not a file`)
      expect(readMasterKeyFile(path)).toHaveLength(1)
    }),
  )

  it.effect("fails with RewrapError naming a data key wrapped by a master key the file does not hold", () =>
    Effect.gen(function* () {
      const { path, keys } = yield* setUp
      const stranger = yield* keyRingOfMasterKeys([newMasterKey()]).wrap(newDataKey())
      yield* keys.addKey({
        keyId: "key-2",
        subjectId: "card:2",
        wrappedKey: stranger.wrapped,
        masterKeyId: stranger.masterKeyId,
        createdAt: 0,
      })
      const error = yield* rotate(path, keys)
      expect(error).toMatchObject({ _tag: "RewrapError", keyId: "key-2", masterKeyId: stranger.masterKeyId })
      expect(error.message).toContain("is not in the key ring")
    }),
  )

  it.effect("fails with the key table's StoreError when the table cannot be read", () =>
    Effect.gen(function* () {
      const { path, keys } = yield* setUp
      const down: SubjectKeysShape = {
        ...keys,
        liveKeys: () => Effect.fail(new StoreError({ reason: "Unavailable", detail: "the database is down" })),
      }
      const error = yield* rotate(path, down)
      expect(error).toMatchObject({ _tag: "StoreError", detail: "the database is down" })
    }),
  )
})
