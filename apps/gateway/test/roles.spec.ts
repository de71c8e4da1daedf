/**
 * The configuration's `roles` say what a process runs: at scale, N gateways
 * with `api` and `expiry` on one PostgreSQL, and one `notifier`.
 */
import { Notification } from "@mizan/notification"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ConfigError, decodeConfig } from "../src/config/config.ts"
import { ok, sandbox } from "./calls.ts"
import { newNumber, startGateway, type TestGateway, testConfig } from "./harness.ts"

const refusalOf = (roles: unknown) => {
  try {
    decodeConfig({ ...testConfig(), roles })
    return "accepted"
  } catch (error) {
    if (error instanceof ConfigError) return error.message
    throw error
  }
}

describe("roles in the configuration", () => {
  it("takes any of api, notifier and expiry, and refuses an unknown one or none, naming the field", () => {
    expect(refusalOf(["api", "expiry"])).toBe("accepted")
    expect(refusalOf(["notifier"])).toBe("accepted")
    expect(refusalOf(["api", "notifer"])).toBe("configuration: roles[1] must be one of api, notifier, expiry")
    expect(refusalOf([])).toBe("configuration: roles must name at least one role")
  })
})

describe("a process without the notifier role", () => {
  let gateway: TestGateway
  beforeAll(async () => {
    gateway = await startGateway({ config: testConfig({ roles: ["api", "expiry"] }) })
  })
  afterAll(() => gateway.close())

  it("serves the API and schedules no notification: that is the notifier process's work", async () => {
    const merchantOrderNo = newNumber("roles")
    await ok(gateway.merchant(), "/acquire2/placeOrder", {
      merchantOrderNo,
      subject: "Roles",
      totalAmount: { amount: 5, currency: "AED" },
      paySceneCode: "PAYPAGE",
      notifyUrl: "http://127.0.0.1:9/notify",
    } as never)
    expect((await sandbox(gateway.merchant(), "payOrder", { merchantOrderNo })).head.code).toBe("0")
    // A notifier in this process would have scheduled the payment's notification within milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const streams = new Set((await gateway.allEvents()).map((event) => event.streamId))
    expect([...streams].filter(Notification.isStream)).toEqual([])
  })
})

describe("a process with only the notifier role", () => {
  let gateway: TestGateway
  beforeAll(async () => {
    gateway = await startGateway({ config: testConfig({ roles: ["notifier"] }) })
  })
  afterAll(() => gateway.close())

  it("serves no API, only its health", async () => {
    expect((await fetch(`${gateway.baseUrl}/health`)).status).toBe(200)
    expect((await fetch(`${gateway.baseUrl}/sgs/api/acquire2/getOrder`, { method: "POST", body: "{}" })).status).toBe(
      404,
    )
  })
})
