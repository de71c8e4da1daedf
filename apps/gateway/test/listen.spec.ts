import { describe, expect, it } from "vitest"
import { ConfigError } from "../src/config/config.ts"
import { listenAddressOf } from "../src/startup/listen.ts"
import { ok } from "./calls.ts"
import { newNumber, startGateway, testConfig } from "./harness.ts"
import { suiteGateway } from "./suiteGateway.ts"

describe("where the gateway listens", () => {
  it("takes PORT and HOST from the environment first, then the configuration, then 127.0.0.1:8080", () => {
    expect(listenAddressOf(undefined, {})).toEqual({ port: 8080, host: "127.0.0.1" })
    expect(listenAddressOf({ port: 9000, host: "0.0.0.0" }, {})).toEqual({ port: 9000, host: "0.0.0.0" })
    expect(listenAddressOf({ port: 9000, host: "0.0.0.0" }, { PORT: "9090", HOST: "::" })).toEqual({
      port: 9090,
      host: "::",
    })
    expect(listenAddressOf({ port: 9000 }, { PORT: "0" })).toEqual({ port: 0, host: "127.0.0.1" })
  })

  it("refuses a PORT that is not a port number, saying what it got", () => {
    for (const port of ["abc", "", " ", "80.5", "-1", "65536", "1e3x"])
      expect(() => listenAddressOf(undefined, { PORT: port })).toThrow(ConfigError)
    expect(() => listenAddressOf(undefined, { PORT: "http" })).toThrow(
      'PORT must be a port number from 0 to 65535, not "http"',
    )
  })
})

describe("links name where the gateway really listens", () => {
  const gateway = suiteGateway(() => startGateway({ config: { ...testConfig(), port: 0 } }))

  it("with port 0, tokenUrl and the OpenAPI servers name the port bound, not 0", async () => {
    const port = new URL(gateway.baseUrl).port
    expect(port).not.toBe("0")
    const body = await ok(gateway.merchant(), "/acquire2/placeOrder", {
      merchantOrderNo: newNumber("port"),
      subject: "x",
      totalAmount: { amount: 1, currency: "AED" },
      paySceneCode: "PAYPAGE",
    } as never)
    expect(new URL(body.interactionParams?.tokenUrl ?? "").origin).toBe(gateway.baseUrl)
    const document = (await (await fetch(`${gateway.baseUrl}/openapi.json`)).json()) as { servers: [{ url: string }] }
    expect(document.servers[0].url).toBe(gateway.baseUrl)
  })
})
