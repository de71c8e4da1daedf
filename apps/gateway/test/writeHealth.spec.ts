/**
 * A store that cannot be written, under a running gateway process: a full
 * file system, a read-only store file, a PostgreSQL server stopped. While
 * writes fail, creates answer the signed SYSTEM_ERROR and `/ready` 503 (the
 * gateway probes with a write of its own, since no traffic comes to it),
 * the log and the metrics say so; once the fault is gone it serves again
 * without a restart. Every order acknowledged reads back, none refused is
 * stored, and the audit replays the store clean.
 */
import type { ChildProcess } from "node:child_process"
import { execFileSync } from "node:child_process"
import {
  chmodSync,
  chownSync,
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { MerchantClient } from "@mizan/merchant-client"
import { type EmbeddedServer, startEmbeddedPostgres } from "@mizan/store-postgres/testing"
import { afterAll, describe, expect, it } from "vitest"
import { testConfig, testMerchant } from "./harness.ts"
import { waitUntil } from "./merchantEndpoint.ts"
import {
  auditReplay,
  call,
  clientOf,
  freePort,
  type ServiceProcessOptions,
  startService,
  stopService,
} from "./processes.ts"

const cleanups: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

interface Gateway {
  readonly port: number
  readonly client: MerchantClient
  readonly logLines: Array<string>
  readonly child: ChildProcess
}

/** Writes the configuration (logging at info: the line of writes coming back is one) and starts the gateway. */
const startGateway = async (dataDir: string, store: string, options: ServiceProcessOptions = {}): Promise<Gateway> => {
  const configPath = join(dataDir, "config.json")
  writeFileSync(
    configPath,
    JSON.stringify(testConfig({ merchants: [testMerchant("M1")], store, logging: { level: "info", format: "json" } })),
  )
  if (options.user !== undefined) chownTree(dataDir, options.user)
  const port = await freePort()
  const logLines: Array<string> = []
  const child = await startService(configPath, port, { ...options, onLine: (line) => logLines.push(line) })
  cleanups.push(() => stopService(child))
  return { port, client: clientOf(dataDir, port), logLines, child }
}

const chownTree = (path: string, user: { readonly uid: number; readonly gid: number }) => {
  chownSync(path, user.uid, user.gid)
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), user)
}

/** Creates an order; its order number, or the refusal's code, HTTP status and message name (read only once its signature verified). */
const create = (gateway: Gateway, merchantOrderNo: string) =>
  call(
    gateway.client.call("/acquire2/placeOrder", {
      merchantOrderNo,
      subject: "Write health",
      totalAmount: { amount: 10, currency: "AED" },
      paySceneCode: "PAYPAGE",
    } as never),
  ).then(
    (answer) => ({ orderNo: answer.acquireOrder.orderNo as string }),
    (error: unknown) => ({ refused: refusalOf(error) }),
  )

const refusalOf = (error: unknown) => {
  if (typeof error !== "object" || error === null || !("_tag" in error) || error._tag !== "ServiceRefused") throw error
  const refused = error as unknown as { code: string; httpStatus: number; messageName: string }
  return { code: refused.code, httpStatus: refused.httpStatus, messageName: refused.messageName }
}

const systemError = { code: "500", httpStatus: 500, messageName: "SYSTEM_ERROR" }

/** The order of `merchantOrderNo` as getOrder reads it: its order number, or the refusal's code. */
const orderNoOf = (gateway: Gateway, merchantOrderNo: string) =>
  call(gateway.client.call("/acquire2/getOrder", { merchantOrderNo } as never)).then(
    (answer) => answer.acquireOrder.orderNo as string,
    (error: unknown) => refusalOf(error).code,
  )

const readyOf = async (gateway: Gateway) => {
  const answer = await fetch(`http://127.0.0.1:${gateway.port}/ready`)
  return { status: answer.status, body: (await answer.json()) as { writes?: { status: string } } }
}

const metricOf = async (gateway: Gateway, name: string) => {
  const text = await (await fetch(`http://127.0.0.1:${gateway.port}/metrics`)).text()
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${name} `))
  return line === undefined ? undefined : Number(line.slice(name.length + 1))
}

const loggedMessages = (gateway: Gateway) =>
  gateway.logLines.flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as { message: unknown }
      return [Array.isArray(parsed.message) ? String(parsed.message[0]) : String(parsed.message)]
    } catch {
      return []
    }
  })

/** Creates each order, every one acknowledged: their order numbers by merchant number. */
const createdOrders = async (gateway: Gateway, merchantOrderNos: ReadonlyArray<string>) => {
  const acknowledged = new Map<string, string>()
  for (const merchantOrderNo of merchantOrderNos) {
    const answer = await create(gateway, merchantOrderNo)
    if (!("orderNo" in answer)) throw new Error(`${merchantOrderNo} was refused: ${JSON.stringify(answer)}`)
    acknowledged.set(merchantOrderNo, answer.orderNo)
  }
  return acknowledged
}

/** While the fault lasts: creates refused with the signed SYSTEM_ERROR, `/ready` 503, the log and the metrics saying so. Answers the refused numbers. */
const refusedWhileFaulty = async (gateway: Gateway, name: string) => {
  const refused = [`${name}-during-1`, `${name}-during-2`]
  for (const merchantOrderNo of refused)
    expect(await create(gateway, merchantOrderNo)).toEqual({ refused: systemError })
  const notReady = await readyOf(gateway)
  expect(notReady.status).toBe(503)
  expect(notReady.body.writes).toMatchObject({ status: "failing" })
  expect(await metricOf(gateway, "mizan_store_writes_failing")).toBe(1)
  expect(loggedMessages(gateway)).toContain("store writes fail; /ready answers 503 until a write goes through")
  return refused
}

/**
 * Once the fault is gone (`fixed`): `/ready` 200 again with no create sent
 * meanwhile, creates taken, every acknowledged order there and no refused one.
 */
const servesAgain = async (
  gateway: Gateway,
  fixed: () => Promise<void> | void,
  name: string,
  acknowledged: ReadonlyMap<string, string>,
  refused: ReadonlyArray<string>,
) => {
  await fixed()
  // The probe writes of /ready alone find that writes go through again.
  await waitUntil(async () => (await readyOf(gateway)).status === 200, "/ready answering 200 again", 20_000)
  expect((await readyOf(gateway)).body.writes).toEqual({ status: "ok" })
  expect(await metricOf(gateway, "mizan_store_writes_failing")).toBe(0)
  expect(await metricOf(gateway, "mizan_store_write_outages_total")).toBe(1)
  expect(loggedMessages(gateway)).toContain("store writes go through again")
  const after = await createdOrders(gateway, [`${name}-after-1`, `${name}-after-2`])
  for (const [merchantOrderNo, orderNo] of [...acknowledged, ...after])
    expect(await orderNoOf(gateway, merchantOrderNo)).toBe(orderNo)
  for (const merchantOrderNo of refused) expect(await orderNoOf(gateway, merchantOrderNo)).toBe("62004")
}

/** A fault made and mended under a running gateway. */
const provesHealing = async (
  gateway: Gateway,
  fault: { readonly on: () => Promise<void> | void; readonly off: () => Promise<void> | void },
  name: string,
) => {
  const acknowledged = await createdOrders(gateway, [`${name}-before-1`, `${name}-before-2`, `${name}-before-3`])
  expect((await readyOf(gateway)).status).toBe(200)
  await fault.on()
  const refused = await refusedWhileFaulty(gateway, name)
  await servesAgain(gateway, fault.off, name, acknowledged, refused)
}

const replaysClean = async (store: string, dataDir: string) => {
  const replay = await auditReplay(store, dataDir)
  expect([replay.code, replay.stderr]).toEqual([0, ""])
  expect((JSON.parse(replay.stdout) as { ok: boolean }).ok).toBe(true)
}

/** A new folder for a gateway's data, removed after the file. */
const newDataDir = (prefix: string) => {
  const dataDir = mkdtempSync(join(tmpdir(), prefix))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  return dataDir
}

const isRoot = process.getuid?.() === 0

/** The user a root test runs the gateway as, so that file permissions bind it: `nobody`. */
const nobody = { uid: 65534, gid: 65534 }

describe("a full file system under the store", () => {
  it("answers creates with the signed SYSTEM_ERROR and /ready 503 while full, and serves again once there is room", {
    timeout: 120_000,
  }, async () => {
    const dataDir = newDataDir("mizan-full-")
    // A file system of its own, 16 MiB: the filler below takes what the store leaves.
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", dataDir])
    cleanups.push(() => void execFileSync("umount", ["-l", dataDir]))
    const gateway = await startGateway(dataDir, "sqlite:store.db")
    const filler = join(dataDir, "filler")
    await provesHealing(
      gateway,
      {
        on: () => fill(filler),
        off: () => rmSync(filler),
      },
      "full",
    )
    await stopService(gateway.child)
    await replaysClean(`sqlite:${join(dataDir, "store.db")}`, dataDir)
  })
})

/** Writes `path` until the file system has no page left: large pieces first, then a page at a time. */
const fill = (path: string) => {
  const fd = openSync(path, "w")
  try {
    for (const pieceBytes of [1 << 16, 4096, 1]) {
      const piece = Buffer.alloc(pieceBytes, 1)
      try {
        for (;;) writeSync(fd, piece)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error
      }
    }
  } finally {
    closeSync(fd)
  }
}

describe("a store file that is read-only", () => {
  it("starts, answers creates with the signed SYSTEM_ERROR and /ready 503, and serves once the file is writable again", {
    timeout: 120_000,
  }, async () => {
    const dataDir = newDataDir("mizan-read-only-")
    const user = isRoot ? { user: nobody } : {}
    const storeFile = join(dataDir, "store.db")
    // A first run makes the keys and the store, and stops cleanly: SQLite removes its -wal and -shm.
    const first = await startGateway(dataDir, "sqlite:store.db", user)
    const acknowledged = await createdOrders(first, ["read-only-1", "read-only-2", "read-only-3"])
    const exited = new Promise((resolve) => first.child.once("exit", resolve))
    first.child.kill("SIGTERM")
    await exited
    expect(readdirSync(dataDir).filter((name) => name.startsWith("store.db-"))).toEqual([])

    // Started on the read-only file: SQLite opens it read-only, and makes its -shm read-only too.
    chmodSync(storeFile, 0o444)
    const gateway = await startGateway(dataDir, "sqlite:store.db", user)
    const refused = await refusedWhileFaulty(gateway, "read-only")
    // The operator's fix: the database file alone, not the -shm SQLite made meanwhile.
    await servesAgain(gateway, () => chmodSync(storeFile, 0o644), "read-only", acknowledged, refused)
    await stopService(gateway.child)
    await replaysClean(`sqlite:${storeFile}`, dataDir)
  })
})

describe("a PostgreSQL server stopped under the gateway", () => {
  let postgres: EmbeddedServer | undefined
  afterAll(async () => {
    await postgres?.stop()
  })

  it("answers creates with the signed SYSTEM_ERROR and /ready 503 while it is down, and serves once it is back", {
    timeout: 180_000,
  }, async () => {
    postgres = await startEmbeddedPostgres()
    const server = postgres
    const store = await server.createDatabase("write_health")
    const dataDir = newDataDir("mizan-pg-outage-")
    const gateway = await startGateway(dataDir, store)
    await provesHealing(gateway, { on: server.stopForNow, off: server.startAgain }, "postgres")
    await stopService(gateway.child)
    await replaysClean(store, dataDir)
  })
})
