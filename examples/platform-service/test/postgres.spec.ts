import { type EmbeddedServer, startEmbeddedPostgres, testServerSettings } from "@mizan/store-postgres/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { postgresSchema } from "../src/store.ts"
import { mizanAudit, orderLifecycle, startService } from "./service.ts"

describe("the service on PostgreSQL, chosen by its STORE setting", () => {
  let server: EmbeddedServer
  beforeAll(async () => {
    server = await startEmbeddedPostgres({ settings: testServerSettings })
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
  })

  it("runs the same order lifecycle, and a second process on the database reads what the first wrote", async () => {
    const setting = await server.createDatabase("platform")
    const first = await startService(setting)
    const second = await startService(setting)
    try {
      const { read } = await orderLifecycle(first)
      expect(read.body).toMatchObject({ paidFils: 10_000, refundedFils: 2_500 })
      expect((await second.call("GET", "/orders/order-1")).body).toEqual(read.body)
    } finally {
      await first.stop()
      await second.stop()
    }
    // The audit, as the package installs it, reads the service's schema and finds every invariant held.
    const replay = await mizanAudit(["replay", "--json", "--store", `${setting}?schema=${postgresSchema}`])
    expect([replay.code, replay.stderr]).toEqual([0, ""])
    expect(JSON.parse(replay.stdout)).toMatchObject({ ok: true, moneyAed: { paid: "100.00", refunded: "25.00" } })
  })
})
