import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, Result } from "effect"
import { describe, expect, it } from "vitest"
import { describeStore, layerStore, maskSetting, type OpenOptions, parseStoreSetting } from "../src/index.ts"

describe("one setting names the store", () => {
  it("reads sqlite paths from the base folder, with an optional durability", () => {
    expect(parseStoreSetting("sqlite:data/m.db", "/srv/mizan")).toEqual(
      Result.succeed({ _tag: "Sqlite", path: "/srv/mizan/data/m.db" }),
    )
    expect(parseStoreSetting("sqlite:/abs.db?synchronous=normal", "/x")).toEqual(
      Result.succeed({ _tag: "Sqlite", path: "/abs.db", synchronous: "normal" }),
    )
    expect(parseStoreSetting("sqlite:/abs.db?synchronous=off", "/x")).toEqual(
      Result.fail("sqlite synchronous=off is neither full nor normal"),
    )
    expect(parseStoreSetting("sqlite:", "/x")).toEqual(Result.fail("sqlite: needs a path, as in sqlite:data/mizan.db"))
  })

  it("reads PostgreSQL URLs with an optional schema, and KurrentDB connection strings", () => {
    expect(parseStoreSetting("postgres://u:p@db:5432/mizan?schema=tenant1", "/")).toEqual(
      Result.succeed({ _tag: "Postgres", url: "postgres://u:p@db:5432/mizan", schema: "tenant1" }),
    )
    expect(parseStoreSetting("kurrentdb+discover://node:2113?tls=false", "/")).toEqual(
      Result.succeed({ _tag: "KurrentDb", connectionString: "kurrentdb+discover://node:2113?tls=false" }),
    )
  })

  it("never echoes a password", () => {
    expect(maskSetting("postgres://admin:s3cret@db/mizan")).toBe("postgres://admin:***@db/mizan")
    const refused = parseStoreSetting("mysql://admin:s3cret@db/mizan", "/")
    expect(Result.isFailure(refused) && refused.failure).toBe(
      'store setting "mysql://admin:***@db/mizan" is not sqlite:PATH, postgres://... or kurrentdb://...',
    )
    expect(describeStore({ _tag: "Postgres", url: "postgres://a:b@h/d" })).toBe("postgres://a:***@h/d")
  })

  const openError = (setting: string, baseDir: string, options?: OpenOptions) =>
    Effect.runPromise(Effect.flip(Effect.scoped(Layer.build(layerStore(setting, baseDir, options)))))

  it("opens an existing SQLite file only when asked to, creating none, and never a directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mizan-stores-"))
    try {
      const missing = await openError("sqlite:missing.db", dir, { mustExist: true })
      expect(missing.message).toBe(
        `Unavailable: no store at ${join(dir, "missing.db")}: the file does not exist, and is not created to be read (check the store setting)`,
      )
      expect(existsSync(join(dir, "missing.db"))).toBe(false)
      const folder = await openError(`sqlite:${dir}`, "/")
      expect(folder.message).toBe(`Unavailable: ${dir} is a directory, not a store file`)
      await Effect.runPromise(Effect.scoped(Layer.build(layerStore("sqlite:created.db", dir))))
      expect(existsSync(join(dir, "created.db"))).toBe(true)
      await Effect.runPromise(Effect.scoped(Layer.build(layerStore("sqlite:created.db", dir, { mustExist: true }))))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("fails the layer of a setting that names no store, saying why", async () => {
    const error = await Effect.runPromise(Effect.flip(Effect.scoped(Layer.build(layerStore("ftp://x", "/")))))
    expect(error).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
    expect(error.message).toContain("is not sqlite:PATH")
  })
})
