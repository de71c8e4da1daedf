import { describe, expect, it } from "vitest"
import type { Rule } from "../src/rule.ts"
import { doubleCast } from "../src/rules/doubleCast.ts"
import { effectFn } from "../src/rules/effectFn.ts"
import { functionLength } from "../src/rules/functionLength.ts"
import { undefinedSpread } from "../src/rules/undefinedSpread.ts"
import { isUnitFirst, unitLast } from "../src/rules/unitLast.ts"
import { parseFile } from "../src/syntax.ts"

const namesFound = (rule: Rule, source: string): Array<string> =>
  rule.find(parseFile("libs/x/src/a.ts", source)).map((finding) => finding.name)

const lines = (count: number): string => Array.from({ length: count }, (_, i) => `  const v${i} = ${i}`).join("\n")

describe("effect-fn: Effect.fn over a function returning Effect.gen", () => {
  it("finds an arrow whose body is Effect.gen, piped or not, and a function that only returns it", () => {
    const source = [
      "const load = (id: string) => Effect.gen(function* () { return id })",
      "const save = (id: string) => Effect.gen(function* () { return id }).pipe(Effect.orDie)",
      "function drop(id: string) { return Effect.gen(function* () { return id }) }",
      "const store = { read: (id: string) => Effect.gen(function* () { return id }) }",
    ].join("\n")
    expect(namesFound(effectFn, source)).toEqual(["load", "save", "drop", "store.read"])
  })

  it("passes Effect.fn, Effect.fnUntraced, a program that is no function, a body that does more, a callback and a span of its own", () => {
    const source = [
      'const load = Effect.fn("Store.load")(function* (id: string) { return id })',
      "const each = Effect.fnUntraced(function* (id: string) { return id })",
      "const program = Effect.gen(function* () { return 1 })",
      "const later = (id: string) => { const key = id.trim(); return Effect.gen(function* () { return key }) }",
      "const each = Effect.flatMap(load, (id: string) => Effect.gen(function* () { return id }))",
      'const spanned = (id: string) => Effect.gen(function* () { return id }).pipe(Effect.withSpan("S.spanned", { attributes: { id } }))',
    ].join("\n")
    expect(namesFound(effectFn, source)).toEqual([])
  })
})

describe("function-length: at most 70 lines", () => {
  it("passes a function of 70 lines and refuses one of 71, by its name and its line count", () => {
    const source = `const short = () => {\n${lines(68)}\n}\nconst long = () => {\n${lines(69)}\n}\n`
    const found = functionLength.find(parseFile("libs/x/src/a.ts", source))
    expect(found).toEqual([{ file: "libs/x/src/a.ts", name: "long", line: 71, detail: "71 lines" }])
  })

  it("names an inner function by the declarations around it, and an anonymous one by what holds it", () => {
    const source = `export const makeSealer = () => {\n  const seal = () => Effect.gen(function* () {\n${lines(70)}\n  })\n  return { seal }\n}\n`
    expect(namesFound(functionLength, source)).toEqual(["makeSealer", "makeSealer.seal"])
  })
})

describe("without-undefined: the kernel's helper, not the pattern written out", () => {
  it("refuses `x === undefined ? {} : { x }` and `x !== undefined ? { x } : {}`", () => {
    const source = [
      "const a = { ...(note === undefined ? {} : { note }) }",
      "const b = { ...(undefined === note ? {} : { note }) }",
      "const c = { ...(note !== undefined ? { note } : {}) }",
    ].join("\n")
    expect(namesFound(undefinedSpread, source)).toEqual(["a", "b", "c"])
  })

  it("passes a conditional whose branches are not an empty object and a one-key object, and a group of keys", () => {
    const source = [
      "const a = note === undefined ? undefined : { note }",
      "const b = note === null ? {} : { note }",
      "const c = withoutUndefined({ note })",
      "const d = last === undefined ? {} : { at: last.at, status: last.status }",
    ].join("\n")
    expect(namesFound(undefinedSpread, source)).toEqual([])
  })
})

describe("unit-last: a bound's unit at the end of its name", () => {
  it.each([
    "appendBatchEventsMax",
    "responseBytesMax",
    "ciphertextCharsMin",
    "bodyBytesLimit",
    "bytesMax",
    "APPEND_EVENTS_MAX",
  ])("refuses %s", (name) => expect(isUnitFirst(name)).toBe(true))

  it.each([
    "appendBatchMaxEvents",
    "clearMaxChars",
    "bodyLimitBytes",
    "findingsListedMax",
    "timeoutMs",
    "MinutesMaximal",
  ])("passes %s", (name) => expect(isUnitFirst(name)).toBe(false))

  it("passes an old name its file lists in a rename table, and refuses any other", () => {
    const source = [
      'const renamedOptions = { answerBytesMax: "answerMaxBytes" } as const',
      "interface Options { readonly answerBytesMax?: number }",
      "const lagSecondsMax = 1",
    ].join("\n")
    expect(namesFound(unitLast, source)).toEqual(["lagSecondsMax"])
  })
})

describe("double-cast: no `as unknown as`", () => {
  it("refuses a cast through unknown, in either syntax, and passes a single cast", () => {
    const source = [
      "const read = (row: object) => row as unknown as Order",
      "const old = (row: object) => <Order>(<unknown>row)",
      "const plain = (row: unknown) => row as Order",
    ].join("\n")
    expect(namesFound(doubleCast, source)).toEqual(["read", "old"])
  })
})
