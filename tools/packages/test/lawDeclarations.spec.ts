import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { checkLawDeclarations, lawsWritingEventsOut } from "../src/lawDeclarations.ts"

const folder = mkdtempSync(join(tmpdir(), "law-declarations-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** An installed package of that name whose laws' declaration reads `text`. */
const installed = (name: string, text: string) => {
  const testing = join(folder, "node_modules", "@mizan", name, "dist", "testing")
  mkdirSync(testing, { recursive: true })
  writeFileSync(join(testing, "laws.d.ts"), text)
}

describe("the laws' declarations", () => {
  it("take a law declared by its event type, and name each package that writes its events out", () => {
    installed("named", "export declare const rulesHold: StreamLaw<Event, State>;\n")
    // A package without laws (the kernel) has nothing to declare.
    mkdirSync(join(folder, "node_modules", "@mizan", "kernel", "dist"), { recursive: true })
    expect(lawsWritingEventsOut(folder)).toEqual([])
    expect(() => checkLawDeclarations(folder)).not.toThrow()

    installed(
      "spelt-out",
      'export declare const rulesHold: (appends: Iterable<{ readonly _tag: "Placed" } | { readonly _tag: "Paid" }>) => State;\n',
    )
    expect(lawsWritingEventsOut(folder)).toEqual(["@mizan/spelt-out/dist/testing/laws.d.ts writes 2 event(s) out"])
    expect(() => checkLawDeclarations(folder)).toThrow(/must name their event types[\s\S]*spelt-out/)
  })
})
