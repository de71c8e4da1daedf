import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { docsProblems } from "../src/docs.ts"
import { issueNumbersIn } from "../src/issueNumbers.ts"

const repository = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), "house-docs-"))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

const linesOf = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join("")

describe("the docs check's lengths", () => {
  it("passes on this repository", () => {
    expect(docsProblems(fileURLToPath(new URL("../../..", import.meta.url)))).toEqual([])
  })

  it("takes a Markdown file of 400 lines and refuses one of 401", () => {
    const root = repository({ "README.md": linesOf(400), "apps/audit/README.md": linesOf(401) })
    expect(docsProblems(root)).toEqual([
      "apps/audit/README.md: 401 lines, more than 400: keep the reference, move the journal to git (or a decision record)",
    ])
  })

  it("holds a decision record to 80 lines and the benchmarks' page to 250, but not the decisions' index", () => {
    const root = repository({
      "docs/decisions/0001-sealed-boxes.md": linesOf(80),
      "docs/decisions/0002-signing.md": linesOf(81),
      "docs/decisions/README.md": linesOf(120),
      "tools/bench/README.md": linesOf(251),
      "tools/links/README.md": linesOf(251),
    })
    expect(docsProblems(root)).toEqual([
      "docs/decisions/0002-signing.md: 81 lines, more than 80: keep the reference, move the journal to git (or a decision record)",
      "tools/bench/README.md: 251 lines, more than 250: keep the reference, move the journal to git (or a decision record)",
    ])
  })

  it("exempts the generated API reference", () => {
    expect(docsProblems(repository({ "docs/api.md": linesOf(1200) }))).toEqual([])
  })

  it("reads no installed, built or data folder", () => {
    expect(
      docsProblems(repository({ "node_modules/x/README.md": linesOf(900), "dist/README.md": "issue 19\n" })),
    ).toEqual([])
  })
})

describe("the docs check's issue numbers", () => {
  it("refuses an issue number in Markdown prose, naming the file, line and what it found", () => {
    const root = repository({
      "CHANGELOG.md": "# Changelog\n\nIssue 19 made replay faster (#19).\nThe issues 15 and 19.\n",
    })
    const why = "say what it is, the tracker is not in the repository"
    expect(docsProblems(root)).toEqual([
      `CHANGELOG.md:3: names an issue number ("Issue 19"): ${why}`,
      `CHANGELOG.md:3: names an issue number ("#19"): ${why}`,
      `CHANGELOG.md:4: names an issue number ("issues 15 and 19"): ${why}`,
    ])
  })

  it("refuses an issue number in a source comment, line and block comments alike", () => {
    const root = repository({
      "libs/kernel/src/personal.ts": [
        "// crypto-shredding (issue 15)",
        "export const x = 1",
        "/**",
        " * Sealed as #15 asked.",
        " */",
      ].join("\n"),
    })
    expect(docsProblems(root).map((problem) => problem.split(": names")[0])).toEqual([
      "libs/kernel/src/personal.ts:1",
      "libs/kernel/src/personal.ts:4",
    ])
  })

  it("does not read code: code blocks, code spans, strings, colours, ids and anchors", () => {
    const root = repository({
      "README.md": [
        "Logs carry a fiber id (`#43`), a colour `#000000`, a heading [link](#errors).",
        "```json",
        '{ "fiberId": "#1", "note": "issue 19" }',
        "```",
        "Tissue 5 is no issue, nor is step#2 or #2a.",
      ].join("\n"),
      "apps/gateway/src/brand.ts": [
        'export const black = "#000000" // the text on a light brand, e.g. #f5c400',
        'const label = "issue 19"',
        "// `#1` is the first fiber",
      ].join("\n"),
    })
    expect(docsProblems(root)).toEqual([])
  })

  it("finds each spelling of an issue number in a line", () => {
    expect(issueNumbersIn("issue 15, Issue #36, issues 15 and 19, (#19), see #7.")).toEqual([
      "issue 15",
      "Issue #36",
      "issues 15 and 19",
      "#19",
      "#7",
    ])
  })
})
