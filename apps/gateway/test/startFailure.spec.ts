import { StoreError } from "@mizan/eventsourcing"
import { HttpServerError } from "effect/http"
import { describe, expect, it } from "vitest"
import { ConfigError } from "../src/config/config.ts"
import { whyItCannotStart } from "../src/startup/startFailure.ts"

const listen = { host: "127.0.0.1", port: 8080 }
const listenFailure = (code: string) =>
  new HttpServerError.ServeError({ cause: Object.assign(new Error(`listen ${code}`), { code }) })

describe("why npm start cannot start, in one line", () => {
  it("says what a configuration or a store gets wrong, as they say it", () => {
    expect(whyItCannotStart(new ConfigError("merchant M1: the public key is not a readable PEM"), listen)).toBe(
      "mizan: merchant M1: the public key is not a readable PEM",
    )
    const unopenable = new StoreError({
      reason: "Unavailable",
      detail: "opening the event store at /x.db: no such dir",
    })
    expect(whyItCannotStart(unopenable)).toBe(
      "mizan: the event store cannot be used: Unavailable: opening the event store at /x.db: no such dir",
    )
  })

  it("names the store setting it could not use, its password hidden", () => {
    const refused = new StoreError({
      reason: "Unavailable",
      detail: "connect ECONNREFUSED 127.0.0.1:5432",
    })
    expect(whyItCannotStart(refused, listen, "postgres://admin:s3cret@/mizan")).toBe(
      "mizan: the event store cannot be used (store postgres://admin:***@/mizan): Unavailable: connect ECONNREFUSED 127.0.0.1:5432",
    )
  })

  it("says what to do when it cannot listen", () => {
    expect(whyItCannotStart(listenFailure("EADDRINUSE"), listen)).toBe(
      "mizan: cannot listen on 127.0.0.1:8080: the port is in use (is a gateway already running?); set PORT to another one",
    )
    expect(whyItCannotStart(listenFailure("EACCES"), { host: "0.0.0.0", port: 80 })).toBe(
      "mizan: cannot listen on 0.0.0.0:80: not allowed to listen there (ports below 1024 need privileges); set PORT",
    )
    expect(whyItCannotStart(listenFailure("EADDRNOTAVAIL"), listen)).toContain("no such address; set HOST")
    expect(whyItCannotStart(listenFailure("EWHATEVER"))).toBe("mizan: cannot listen: listen EWHATEVER")
  })

  it("leaves any other failure to the runtime, which reports it with its stack", () => {
    expect(whyItCannotStart(new Error("a bug"), listen)).toBeUndefined()
    expect(whyItCannotStart("not even an error")).toBeUndefined()
  })
})
