import { describe, expect, it } from "vitest"
import { threadPoolSizeFor } from "../src/startup/threadPool.ts"

describe("libuv's thread pool, sized for the machine", () => {
  it("takes every core but the event loop's", () => {
    expect(threadPoolSizeFor(4)).toBe(3)
    expect(threadPoolSizeFor(16)).toBe(15)
  })

  it("keeps at least 2 threads on one or two cores, so that a file operation never waits behind a single signing thread", () => {
    expect(threadPoolSizeFor(1)).toBe(2)
    expect(threadPoolSizeFor(2)).toBe(2)
  })
})
