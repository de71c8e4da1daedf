import { describe, expect, it } from "vitest"
import { newTraceCode } from "../src/pipeline/pipeline.ts"

describe("trace codes", () => {
  it("are 16 hex digits, and none repeats across several draws of the random pool (512 codes each)", () => {
    const codes = Array.from({ length: 2_000 }, newTraceCode)
    for (const code of codes) expect(code).toMatch(/^[0-9a-f]{16}$/)
    expect(new Set(codes).size).toBe(codes.length)
  })
})
