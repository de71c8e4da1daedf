import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { houseRules, ruleProblems } from "../src/check.ts"
import { compareWithRatchet, parseRatchet, ratchetText } from "../src/ratchet.ts"
import type { Finding } from "../src/rule.ts"
import { readSources } from "../src/sources.ts"
import { parseFile } from "../src/syntax.ts"

const workspace = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), "rules-"))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

const finding = (file: string, name: string): Finding => ({ file, name, line: 1, detail: "" })

describe("a ratchet", () => {
  it("holds today's offenders: none added, none fixed", () => {
    const listed = ["a.ts: load", "b.ts: save"]
    expect(compareWithRatchet([finding("b.ts", "save"), finding("a.ts", "load")], listed)).toEqual({
      added: [],
      fixed: [],
    })
  })

  it("refuses a new offender even when an old one is fixed in the same change, and asks for the fixed one's line", () => {
    const outcome = compareWithRatchet(
      [finding("a.ts", "load"), finding("c.ts", "fresh")],
      ["a.ts: load", "b.ts: save"],
    )
    expect(outcome.added.map((f) => f.name)).toEqual(["fresh"])
    expect(outcome.fixed).toEqual(["b.ts: save"])
  })

  it("counts a name listed once and met twice as one new offender", () => {
    const outcome = compareWithRatchet([finding("a.ts", "read"), finding("a.ts", "read")], ["a.ts: read"])
    expect(outcome.added).toHaveLength(1)
  })

  it("reads back the list it writes, comments left out", () => {
    const findings = [finding("b.ts", "save"), finding("a.ts", "load")]
    expect(parseRatchet(ratchetText("a rule", findings))).toEqual(["a.ts: load", "b.ts: save"])
  })
})

describe("the house-rule check", () => {
  const sample = {
    "libs/x/package.json": "{}",
    "libs/x/src/a.ts": [
      "export const load = (id: string) => Effect.gen(function* () { return id })",
      "export const spread = (note?: string) => ({ ...(note === undefined ? {} : { note }) })",
      "export const readEventsMax = 3",
      "export const cast = (row: object) => row as unknown as string",
    ].join("\n"),
    "libs/x/test/a.spec.ts": "const testOnly = (n?: string) => (n === undefined ? {} : { n })",
    "libs/no-package/src/b.ts": "const ignored = (n?: string) => (n === undefined ? {} : { n })",
  }

  it("reads only the src/ of the projects", () => {
    const root = workspace(sample)
    expect(readSources(root).map((file) => file.path)).toEqual(["libs/x/src/a.ts"])
  })

  it("refuses each bad sample with its file, line, name and rule, a ratchet's offender as new", () => {
    const root = workspace(sample)
    const problems = ruleProblems(readSources(root), join(root, "ratchets"))
    expect(problems).toEqual([
      expect.stringMatching(/^libs\/x\/src\/a.ts:1: load \(returns Effect.gen\): .*\[effect-fn: new, not in/),
      expect.stringMatching(/^libs\/x\/src\/a.ts:2: spread .*withoutUndefined .*\[without-undefined\]$/),
      expect.stringMatching(/^libs\/x\/src\/a.ts:3: readEventsMax .*\[unit-last\]$/),
      expect.stringMatching(/^libs\/x\/src\/a.ts:4: cast \(as unknown as\).*\[double-cast: new, not in/),
    ])
  })

  it("passes a ratchet's listed offender and asks to remove a listed one that is gone", () => {
    const root = workspace({
      ...sample,
      "ratchets/effect-fn.txt": "# header\nlibs/x/src/a.ts: load\nlibs/x/src/gone.ts: old\n",
      "ratchets/double-cast.txt": "libs/x/src/a.ts: cast\n",
    })
    const ratchets = houseRules.filter((rule) => rule.ratchet)
    expect(ruleProblems(readSources(root), join(root, "ratchets"), ratchets)).toEqual([
      "libs/x/src/gone.ts: old: no longer offends [effect-fn]: remove its line from tools/rules/ratchets/effect-fn.txt",
    ])
  })

  it("parses a .tsx file as TSX", () => {
    const file = parseFile("libs/x/src/a.tsx", "export const view = () => <p>{1}</p>")
    expect(file.program.type).toBe("Program")
  })
})
