import { describe, expect, it } from "vitest"
import { ConfigError } from "../src/config.ts"
import { listenAddressOf } from "../src/listen.ts"

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
