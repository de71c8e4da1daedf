import { describe, expect, it } from "vitest"
import { expiryProblem } from "../src/index.ts"
import { at } from "./support.ts"

describe("card expiry", () => {
  const march = at("2026-03-15T12:00:00Z")

  it.each([
    ["2026", "3"],
    ["2026", "03"],
    ["2026", "12"],
    ["2031", "1"],
  ])("accepts %s-%s in March 2026", (year, month) => {
    expect(expiryProblem(year, month, march)).toBeUndefined()
  })

  it.each([
    ["2026", "2", "expiryYear", "expiryYear and expiryMonth must be the current month or later"],
    ["2025", "12", "expiryYear", "expiryYear and expiryMonth must be the current month or later"],
    ["2026", "0", "expiryMonth", "expiryMonth must be a month from 1 to 12"],
    ["2026", "13", "expiryMonth", "expiryMonth must be a month from 1 to 12"],
    ["2026", "3a", "expiryMonth", "expiryMonth must be a month from 1 to 12"],
    ["26", "3", "expiryYear", "expiryYear must be a year of 4 digits"],
    ["２０２６", "3", "expiryYear", "expiryYear must be a year of 4 digits"],
  ])("refuses %s-%s with 400 naming %s: %s", (year, month, field, problem) => {
    const refusal = expiryProblem(year, month, march)
    expect(refusal).toMatchObject({ code: "INVALID_PARAMETER", field })
    expect(refusal?.detail).toContain(problem)
  })

  it("counts the current month in UAE time, four hours ahead of UTC", () => {
    const lateJanuaryUtc = at("2026-01-31T20:00:00Z")
    const januaryCard = ["2026", "1"] as const
    expect(expiryProblem(...januaryCard, at("2026-01-31T19:59:59Z"))).toBeUndefined()
    expect(expiryProblem(...januaryCard, lateJanuaryUtc)?.detail).toContain("card has expired")
  })
})
