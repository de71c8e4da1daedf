import { inspect } from "node:util"
import { describe, expect, it } from "vitest"
import { CardNumber } from "../src/index.ts"
import { sha256 } from "./support.ts"

const clear = "4111111111111111"
const card = new CardNumber(clear, sha256(clear))

describe("the clear card number", () => {
  it("keeps its digits out of JSON, strings, templates and Node's inspect", () => {
    expect(JSON.stringify({ card })).toBe('{"card":"****1111"}')
    expect(String(card)).toBe("****1111")
    expect(`${card}`).toBe("****1111")
    expect(inspect({ card })).not.toContain(clear)
    expect(Object.keys(card)).toEqual(["digest"])
  })

  it("gives its digits to the bank port alone, through reveal()", () => {
    expect(card.reveal()).toBe(clear)
  })

  it("tells its last 4, its length and whether it is numeric only", () => {
    expect([card.last4, card.digitCount, card.isNumericOnly]).toEqual(["1111", 16, true])
    const typed = new CardNumber("4111 1111 1111", sha256("4111 1111 1111"))
    expect(typed.isNumericOnly).toBe(false)
  })
})
