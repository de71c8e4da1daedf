import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { linkProblems } from "../src/check.ts"
import { commentsOf } from "../src/comments.ts"
import { anchorsOf } from "../src/markdown.ts"
import { packageProblems } from "../src/packages.ts"
import { packedLinkProblems } from "../src/packed.ts"

const repository = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), "links-"))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

const docs = {
  "docs/api.md": "# API\n\n## Refunds\n\n## Get order payer\n",
  "libs/kernel/package.json": "{}",
  "libs/kernel/README.md": "# @mizan/kernel\n",
  "libs/kernel/src/codes.ts": "export const codes = {}\n",
}

describe("the link check", () => {
  it("passes on this repository", () => {
    expect(linkProblems(fileURLToPath(new URL("../../..", import.meta.url)))).toEqual([])
  })

  it("accepts links and comment paths that name files and headings of the repository", () => {
    const root = repository({
      ...docs,
      "README.md":
        "See [the API](docs/api.md#refunds), [payer](./docs/api.md#get-order-payer) and [kernel](libs/kernel).\n",
      "libs/kernel/src/money.ts":
        "/** Codes: libs/kernel/src/codes.ts, the rules in docs/api.md#refunds and ../README.md. */\n",
    })
    expect(linkProblems(root)).toEqual([])
  })

  it("refuses a Markdown link to a file that does not exist, naming the file and line", () => {
    const root = repository({ ...docs, "README.md": "# Mizan\n\nThe [design](PLAN.md) and [guide](docs/guide.md).\n" })
    expect(linkProblems(root)).toEqual([
      "README.md:3: PLAN.md does not exist in the repository",
      "README.md:3: docs/guide.md does not exist in the repository",
    ])
  })

  it("refuses an anchor that no heading of the linked file makes", () => {
    const root = repository({ ...docs, "libs/kernel/README.md": "See [payouts](../../docs/api.md#payouts).\n" })
    expect(linkProblems(root)).toEqual(["libs/kernel/README.md:1: docs/api.md has no heading for #payouts"])
  })

  it("refuses a path in a source comment that does not exist, line and block comments alike", () => {
    const root = repository({
      ...docs,
      "libs/kernel/src/money.ts": [
        "// the rule is in conventions.md, Transport",
        "export const x = 1",
        "/**",
        " * Rounding as libs/kernel/src/rounding.ts says (docs/api.md#fees).",
        " */",
      ].join("\n"),
    })
    expect(linkProblems(root)).toEqual([
      "libs/kernel/src/money.ts:1: conventions.md does not exist in the repository",
      "libs/kernel/src/money.ts:4: libs/kernel/src/rounding.ts does not exist in the repository",
      "libs/kernel/src/money.ts:4: docs/api.md has no heading for #fees",
    ])
  })

  it("does not follow web links, code, strings, globs or placeholders", () => {
    const root = repository({
      ...docs,
      "README.md": [
        "[spec](https://example.com/PLAN.md) and `[x](nowhere.md)`",
        "```",
        "[y](nowhere.md) libs/missing/src/a.ts",
        "```",
        "Every libs/*/README.md and libs/<name>/src.",
      ].join("\n"),
      "libs/kernel/src/money.ts": [
        'const path = "libs/missing/a.ts" // a string, then libs/kernel/src/codes.ts',
        "const pattern = /\\/\\/ libs\\/missing/",
        "const t = `// docs/missing.md`",
      ].join("\n"),
    })
    expect(linkProblems(root)).toEqual([])
  })
})

describe("packages", () => {
  it("each has a README and a row in the root README's layout table, on this repository too", () => {
    expect(packageProblems(fileURLToPath(new URL("../../..", import.meta.url)))).toEqual([])
  })

  it("refuses a package without a README, and one the layout table does not list", () => {
    const root = repository({
      "README.md": "| project | what |\n| --- | --- |\n| `libs/kernel` | money |\n",
      "libs/kernel/package.json": "{}",
      "libs/kernel/README.md": "# @mizan/kernel\n",
      "tools/links/package.json": "{}",
      "tools/lockfile/keep.mjs": "// not a package: no package.json\n",
    })
    expect(packageProblems(root)).toEqual([
      "tools/links: has no README.md",
      "README.md: the layout table does not list tools/links",
    ])
  })
})

describe("comments", () => {
  it("finds line and block comments with their lines, never inside strings, templates or regular expressions", () => {
    const source = [
      'const a = "// no" // yes 1',
      "const r = /\\/*x/ /* yes 2",
      "   still 2 */ const t = `/* no */`",
    ].join("\n")
    expect(commentsOf(source)).toEqual([
      { line: 1, text: " yes 1" },
      { line: 2, text: " yes 2\n   still 2 " },
    ])
  })

  it("reads a slash after a value as division", () => {
    expect(commentsOf("const half = total / 2 // half\n")).toEqual([{ line: 1, text: " half" }])
  })
})

describe("anchors", () => {
  it("are made as GitHub makes them, repeats numbered", () => {
    expect([
      ...anchorsOf("# Mizan's API\n## `head.code` and errors\n## Notes\n## Notes\n```\n# not a heading\n```\n"),
    ]).toEqual(["mizans-api", "headcode-and-errors", "notes", "notes-1"])
  })
})

describe("the links of a published package's README", () => {
  it("pass on this repository", () => {
    expect(packedLinkProblems(fileURLToPath(new URL("../../..", import.meta.url)))).toEqual([])
  })

  it("refuse a link outside the package or to a file it does not publish, and leave private packages alone", () => {
    const root = repository({
      ...docs,
      "docs/architecture.md": "# Architecture\n\n## Consistency\n",
      "libs/kernel/package.json": JSON.stringify({ name: "@mizan/kernel", files: ["dist", "src"] }),
      "libs/kernel/test/money.spec.ts": "",
      "libs/kernel/README.md": [
        "# @mizan/kernel",
        "[codes](src/codes.ts), [the manifest](package.json), [here](#mizankernel), [site](https://example.com/a.md)",
        "[architecture](../../docs/architecture.md#consistency)",
        "[its tests](test/money.spec.ts)",
        "",
      ].join("\n"),
      "apps/gateway/package.json": JSON.stringify({ name: "@mizan/gateway", private: true }),
      "apps/gateway/README.md": "[architecture](../../docs/architecture.md)\n",
    })
    expect(packedLinkProblems(root)).toEqual([
      "libs/kernel/README.md:3: ../../docs/architecture.md#consistency is outside the published package, so its tarball lacks it: link it absolutely or name it in words",
      "libs/kernel/README.md:4: test/money.spec.ts is not among the files the package publishes (dist, src)",
    ])
  })
})
