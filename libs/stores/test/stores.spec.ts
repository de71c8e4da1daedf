import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { it } from "@effect/vitest"
import { Effect, Layer, Result } from "effect"
import { describe, expect } from "vitest"
import { describeStore, layerStore, maskSetting, type OpenOptions, parseStoreSetting } from "../src/index.ts"

describe("one setting names the store", () => {
  it("reads sqlite paths from the base folder, with an optional durability", () => {
    expect(parseStoreSetting("sqlite:data/m.db", "/srv/mizan")).toEqual(
      Result.succeed({ _tag: "Sqlite", path: "/srv/mizan/data/m.db" }),
    )
    expect(parseStoreSetting("sqlite:/abs.db?synchronous=normal", "/x")).toEqual(
      Result.succeed({ _tag: "Sqlite", path: "/abs.db", synchronous: "normal" }),
    )
    expect(parseStoreSetting("sqlite:/abs.db?synchronous=full", "/x")).toEqual(
      Result.succeed({ _tag: "Sqlite", path: "/abs.db", synchronous: "full" }),
    )
    expect(parseStoreSetting("sqlite:/abs.db?synchronous=off", "/x")).toEqual(
      Result.fail("sqlite synchronous=off is none of full-offloaded, full, normal"),
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

  it("takes a KurrentDB setting's keyTable out of its connection string, as a SQLite or PostgreSQL setting", () => {
    expect(parseStoreSetting("kurrentdb://node:2113?tls=false&keyTable=sqlite:keys.db", "/srv/mizan")).toEqual(
      Result.succeed({
        _tag: "KurrentDb",
        connectionString: "kurrentdb://node:2113?tls=false",
        keyTable: { _tag: "Sqlite", path: "/srv/mizan/keys.db" },
      }),
    )
    expect(parseStoreSetting("esdb://node:2113?keyTable=postgres://u:p@db/mizan", "/")).toEqual(
      Result.succeed({
        _tag: "KurrentDb",
        connectionString: "esdb://node:2113",
        keyTable: { _tag: "Postgres", url: "postgres://u:p@db/mizan" },
      }),
    )
    expect(
      parseStoreSetting("kurrentdb://node:2113?tlsCAFile=/etc/kurrent%20ca.pem&keyTable=sqlite:/k.db&tls=true", "/"),
    ).toEqual(
      Result.succeed({
        _tag: "KurrentDb",
        connectionString: "kurrentdb://node:2113?tlsCAFile=/etc/kurrent%20ca.pem&tls=true",
        keyTable: { _tag: "Sqlite", path: "/k.db" },
      }),
    )
    expect(parseStoreSetting("kurrentdb://node:2113?keyTable=kurrentdb://other:2113", "/")).toEqual(
      Result.fail(
        "keyTable=kurrentdb://other:2113 names no key table: it must be sqlite:PATH or postgres://... (KurrentDB holds events only)",
      ),
    )
    expect(parseStoreSetting("kurrentdb://node:2113?keyTable=sqlit:keys.db", "/")).toEqual(
      Result.fail(
        'keyTable=sqlit:keys.db names no key table: it must be sqlite:PATH or postgres://... (store setting "sqlit:keys.db" is not sqlite:PATH, postgres://... or kurrentdb://...)',
      ),
    )
    expect(parseStoreSetting("kurrentdb://node:2113?keyTable=", "/")).toEqual(
      Result.fail("keyTable= names no key table: it must be sqlite:PATH or postgres://... (it is empty)"),
    )
  })

  it("refuses a parameter it does not know, naming it and what is accepted, rather than ignore a typo", () => {
    expect(parseStoreSetting("sqlite:/abs.db?synchronus=full", "/x")).toEqual(
      Result.fail("sqlite parameter synchronus is not known: sqlite:PATH takes synchronous only"),
    )
    const kurrentDbRefusal = (parameter: string) =>
      Result.fail(
        `kurrentdb parameter ${parameter} is not known: a KurrentDB setting takes keyTable and the client's connectionName, defaultDeadline, discoveryInterval, gossipTimeout, keepAliveInterval, keepAliveTimeout, maxDiscoverAttempts, nodePreference, throwOnAppendFailure, tls, tlsCAFile, tlsVerifyCert, userCertFile, userKeyFile`,
      )
    expect(parseStoreSetting("kurrentdb://node:2113?tls=false&keyTabel=sqlite:keys.db", "/")).toEqual(
      kurrentDbRefusal("keyTabel"),
    )
    // The client reads its own options in any letter case; keyTable is read as written, so another case is a typo.
    expect(parseStoreSetting("kurrentdb://node:2113?KeyTable=sqlite:keys.db", "/")).toEqual(
      kurrentDbRefusal("KeyTable"),
    )
    const postgresUnknown = (parameter: string) =>
      `postgres parameter ${parameter} is not known: a PostgreSQL setting takes schema and the driver's host, port, user, password, ssl, sslmode, sslcert, sslkey, sslrootcert, sslnegotiation, uselibpqcompat, application_name, fallback_application_name, options, client_encoding, statement_timeout, lock_timeout, idle_in_transaction_session_timeout, query_timeout`
    const postgresRefusal = (parameter: string) => Result.fail(postgresUnknown(parameter))
    expect(parseStoreSetting("postgres://u:p@db/mizan?sslmod=require", "/")).toEqual(postgresRefusal("sslmod"))
    expect(parseStoreSetting("postgresql://u:p@db/mizan?schema=t&Schema=u", "/")).toEqual(postgresRefusal("Schema"))
    // The pool's size is a pool option, never read from the URL: written there it would be ignored.
    expect(parseStoreSetting("postgres://u:p@db/mizan?max=50", "/")).toEqual(postgresRefusal("max"))
    expect(
      parseStoreSetting("postgres://u:p@db/mizan?sslmode=verify-full&statement_timeout=5000&schema=t", "/"),
    ).toEqual(
      Result.succeed({
        _tag: "Postgres",
        url: "postgres://u:p@db/mizan?sslmode=verify-full&statement_timeout=5000",
        schema: "t",
      }),
    )
    expect(parseStoreSetting("kurrentdb://node:2113?keyTable=postgres://u:p@db/mizan%3Fsslmod%3Drequire", "/")).toEqual(
      Result.fail(
        `keyTable=postgres://u:***@db/mizan?sslmod=require names no key table: it must be sqlite:PATH or postgres://... (${postgresUnknown("sslmod")})`,
      ),
    )
    expect(
      parseStoreSetting("kurrentdb://node:2113?TLS=false&tls_verify_cert=false&keyTable=sqlite:/k.db", "/"),
    ).toEqual(
      Result.succeed({
        _tag: "KurrentDb",
        connectionString: "kurrentdb://node:2113?TLS=false&tls_verify_cert=false",
        keyTable: { _tag: "Sqlite", path: "/k.db" },
      }),
    )
  })

  it("never echoes a password", () => {
    expect(maskSetting("postgres://admin:s3cret@db/mizan")).toBe("postgres://admin:***@db/mizan")
    const refused = parseStoreSetting("mysql://admin:s3cret@db/mizan", "/")
    expect(Result.isFailure(refused) && refused.failure).toBe(
      'store setting "mysql://admin:***@db/mizan" is not sqlite:PATH, postgres://... or kurrentdb://...',
    )
    expect(describeStore({ _tag: "Postgres", url: "postgres://a:b@h/d" })).toBe("postgres://a:***@h/d")
    expect(
      describeStore({
        _tag: "KurrentDb",
        connectionString: "kurrentdb://admin:changeit@node:2113",
        keyTable: { _tag: "Postgres", url: "postgres://a:b@h/d" },
      }),
    ).toBe("kurrentdb://admin:***@node:2113 (keys in postgres://a:***@h/d)")
    const refusedKeyTable = parseStoreSetting("kurrentdb://node:2113?keyTable=mysql://a:b@h/d", "/")
    expect(Result.isFailure(refusedKeyTable) && refusedKeyTable.failure).not.toContain(":b@")
  })

  const open = (setting: string, baseDir: string, options?: OpenOptions) =>
    Effect.scoped(Layer.build(layerStore(setting, baseDir, options)))
  const openError = (setting: string, baseDir: string, options?: OpenOptions) =>
    Effect.flip(open(setting, baseDir, options))

  /** A folder of the test's own, removed when the test ends. */
  const tempDir = Effect.acquireRelease(
    Effect.sync(() => mkdtempSync(join(tmpdir(), "mizan-stores-"))),
    (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true })),
  )

  it.effect("opens an existing SQLite file only when asked to, creating none, and never a directory", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const missing = yield* openError("sqlite:missing.db", dir, { mustExist: true })
      expect(missing.message).toBe(
        `Unavailable: no store at ${join(dir, "missing.db")}: the file does not exist, and is not created to be read (check the store setting)`,
      )
      expect(existsSync(join(dir, "missing.db"))).toBe(false)
      const folder = yield* openError(`sqlite:${dir}`, "/")
      expect(folder.message).toBe(`Unavailable: ${dir} is a directory, not a store file`)
      yield* open("sqlite:created.db", dir)
      expect(existsSync(join(dir, "created.db"))).toBe(true)
      yield* open("sqlite:created.db", dir, { mustExist: true })
    }),
  )

  it.effect("fails the layer of a setting that names no store, saying why", () =>
    Effect.gen(function* () {
      const error = yield* openError("ftp://x", "/")
      expect(error).toMatchObject({ _tag: "StoreError", reason: "InvalidRequest" })
      expect(error.message).toContain("is not sqlite:PATH")
    }),
  )
})
