/**
 * The audit of the service's own store, as an operator runs it: the
 * `mizan-audit` command the `@mizan/audit` package installs replays every
 * event the service wrote and checks every invariant.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { mizanAudit, orderLifecycle, startService } from "./service.ts"

const folder = mkdtempSync(join(tmpdir(), "platform-service-audit-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

it("replays the service's store with every invariant held, and counts the money it moved", async () => {
  const setting = `sqlite:${join(folder, "platform.db")}`
  const service = await startService(setting)
  await orderLifecycle(service)
  await service.stop()
  const replay = await mizanAudit(["replay", "--json", "--store", setting])
  expect([replay.code, replay.stderr]).toEqual([0, ""])
  expect(JSON.parse(replay.stdout)).toMatchObject({
    ok: true,
    moneyAed: { paid: "100.00", refunded: "25.00" },
  })
  // On two worker threads, which load the package's built worker module: the same report.
  const onWorkers = await mizanAudit(["replay", "--json", "--workers", "2", "--store", setting])
  expect([onWorkers.code, onWorkers.stderr]).toEqual([0, ""])
  const { elapsedMs: _, ...report } = JSON.parse(replay.stdout)
  const { elapsedMs: __, ...reportOnWorkers } = JSON.parse(onWorkers.stdout)
  expect(reportOnWorkers).toEqual(report)
}, 30_000)
