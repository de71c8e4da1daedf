import { test } from "@fast-check/vitest"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  DuplicateKey,
  duplicateKeyIn,
  MalformedJson,
  maxNestingDepth,
  NestedTooDeeply,
  parseJson,
  stringifyJson,
} from "../src/index.ts"

const parsed = (text: string | Uint8Array) => Result.getOrThrow(parseJson(text))

describe("JSON with exact numbers", () => {
  it("keeps a decimal as its source text", () => {
    expect(parsed('{"amount":0.10}')).toEqual({ amount: "0.10" })
    expect(parsed('{"amount":12.5}')).toEqual({ amount: "12.5" })
  })

  it("keeps an exponent as its source text, so the Money codec can refuse it", () => {
    expect(parsed('{"amount":1e3,"b":1E-2}')).toEqual({ amount: "1e3", b: "1E-2" })
  })

  it("keeps a plain integer a number", () => {
    expect(parsed('{"requestTime":1700000000000,"n":-5,"z":0}')).toEqual({ requestTime: 1700000000000, n: -5, z: 0 })
  })

  it("keeps an integer beyond 2^53 as its source text instead of rounding it", () => {
    expect(parsed('{"id":12345678901234567890}')).toEqual({ id: "12345678901234567890" })
    expect(parsed("[9007199254740993]")).toEqual(["9007199254740993"])
  })

  it("works in nested objects and lists", () => {
    expect(parsed('{"a":{"b":[{"amount":0.10},1,2.50]},"s":"0.10"}')).toEqual({
      a: { b: [{ amount: "0.10" }, 1, "2.50"] },
      s: "0.10",
    })
  })

  it("reads \\/ escapes and UTF-8 bytes", () => {
    expect(parsed(Buffer.from('{"url":"https:\\/\\/shop.example\\/ok","subject":"قهوة"}'))).toEqual({
      url: "https://shop.example/ok",
      subject: "قهوة",
    })
  })

  test.prop([fc.integer({ min: 0, max: 99_999_999_999_999 })], { numRuns: 100 })(
    "gives back the exact text of any two-decimal amount",
    (hundredths) => {
      const text = `${Math.trunc(hundredths / 100)}.${String(hundredths % 100).padStart(2, "0")}`
      expect(parsed(`{"amount":${text}}`)).toEqual({ amount: text })
    },
  )

  it.each([["{"], ['{"a":01}'], ["not json"], [""], ['{"a":1,}']])("refuses %j as malformed", (text) => {
    const result = parseJson(text)
    expect(Result.isFailure(result) && result.failure).toBeInstanceOf(MalformedJson)
  })

  it("refuses bytes that are not UTF-8", () => {
    expect(Result.isFailure(parseJson(new Uint8Array([0x7b, 0xff, 0x7d])))).toBe(true)
  })

  it.each([
    ['{"totalAmount":{"amount":1},"totalAmount":{"amount":9}}', "totalAmount"],
    ['{"a":{"b":1,"c":2,"b":3}}', "b"],
    ['[{"x":1},{"y":2,"y":2}]', "y"],
    ['{"a":1,"\u0061":2}', "a"],
    ['{"k\\"q":1,"k\\"q":2}', 'k"q'],
  ])("refuses %s, whose object names %j twice, naming the key", (text, key) => {
    const result = parseJson(text)
    expect(Result.isFailure(result) && result.failure).toEqual(new DuplicateKey({ key }))
    expect(Result.isFailure(result) && result.failure.message).toContain(JSON.stringify(key))
  })

  it.each([
    ['{"a":{"a":{"a":1}}}'],
    ['[{"a":1},{"a":2}]'],
    ['{"a":"a","b":["a","a"],"c":{"a":1}}'],
    ['{"a,":1,"a":"{\\"a\\":1,\\"a\\":2}"}'],
  ])("takes %s: the same key in different objects, or inside strings, is no duplicate", (text) => {
    expect(duplicateKeyIn(text)).toBeUndefined()
    expect(Result.isSuccess(parseJson(text))).toBe(true)
  })

  test.prop([fc.json()], { numRuns: 300 })(
    "finds none in any text JSON.stringify writes, whatever its strings hold",
    (text) => {
      expect(duplicateKeyIn(text)).toBeUndefined()
    },
  )

  test.prop([fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 })], { numRuns: 200 })(
    "finds the key when an object names one of its keys again",
    (object) => {
      const [key] = Object.keys(object) as [string]
      const text = JSON.stringify(object).replace(/^\{/, () => `{${JSON.stringify(key)}:null,`)
      expect(duplicateKeyIn(text)).toBe(key)
    },
  )

  const nested = (depth: number) => `${"[".repeat(depth - 1)}{"a":1}${"]".repeat(depth - 1)}`

  it("takes arrays and objects nested as deep as the limit", () => {
    expect(Result.isSuccess(parseJson(nested(maxNestingDepth)))).toBe(true)
  })

  it.each([maxNestingDepth + 1, 100_000])(
    "refuses valid JSON nested %i deep as too deep, not as malformed",
    (depth) => {
      const result = parseJson(nested(depth))
      expect(Result.isFailure(result) && result.failure).toEqual(new NestedTooDeeply({ limit: maxNestingDepth }))
      expect(Result.isFailure(result) && result.failure.message).toBe(
        `body nests arrays and objects more than ${maxNestingDepth} deep`,
      )
    },
  )

  it("counts no bracket inside a string, escaped quotes and backslashes included", () => {
    const brackets = JSON.stringify(`\\"${"[{".repeat(maxNestingDepth)}"\\`)
    expect(Result.isSuccess(parseJson(`{"a":${brackets},"b":[${brackets}]}`))).toBe(true)
  })

  it("never echoes the body in its error", () => {
    const result = parseJson('{"cardNumber":"4111111111111111",}')
    expect(Result.isFailure(result) && result.failure.message).not.toContain("4111")
  })
})

describe("writing JSON", () => {
  it("writes amounts as JSON numbers and leaves slashes unescaped", () => {
    expect(stringifyJson({ amount: 10.5, url: "https://a/b" })).toBe('{"amount":10.5,"url":"https://a/b"}')
  })

  it("throws on a non-finite number instead of writing null", () => {
    expect(() => stringifyJson({ amount: Number.NaN })).toThrow(TypeError)
    expect(() => stringifyJson({ amount: Number.POSITIVE_INFINITY })).toThrow(TypeError)
  })
})
