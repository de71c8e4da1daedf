import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { AcquiringOrder } from "@mizan/acquiring"
import { codeCatalogue } from "@mizan/kernel"
import { apiBasePath, operationPaths } from "@mizan/protocol"
import { describe, expect, it } from "vitest"
import { fieldRows } from "../src/apiDoc/fields.ts"
import { withSections } from "../src/apiDoc/markdown.ts"
import { apiDocSections } from "../src/apiDoc/sections.ts"
import { runScript } from "./processes.ts"

const page = readFileSync(fileURLToPath(new URL("../../../docs/api.md", import.meta.url)), "utf8")

describe("docs/api.md", () => {
  it("says what the code does: its generated sections are those npm run api-doc writes", () => {
    expect(withSections(page, apiDocSections())).toBe(page)
  })

  it("gives an order's fields the forms its answers have: the closed sets listed, decimals as the numbers sent", () => {
    const orders = page.slice(page.indexOf("<!-- generated:order-objects -->"))
    /** The form of `field` in the table under `### order`. */
    const formIn = (order: string, field: string) => {
      const table = orders.slice(orders.indexOf(`### ${order}\n`)).split("\n\n")[1] ?? ""
      return table.match(new RegExp(`^\\| \`${field}\` +\\| ([^|]+?) +\\|`, "m"))?.[1]
    }
    expect(formIn("transferToBankOrder", "status")).toBe("one of `CREATED`, `SUCCESS`, `FAILURE`")
    expect(formIn("transferToBankOrder", "rate")).toBe("number")
    expect(formIn("transferOrder", "failCode")).toContain("`BENEFICIARY_NOT_FOUND`")
    expect(formIn("acquireOrder", "paySceneCode")).toContain("`PAYPAGE`")
    expect(formIn("acquireOrder", "accessoryContent.goodsDetail.quantity")).toBe("number")
  })

  it("names every failCode an acquiring order is closed with", () => {
    const orders = page.slice(page.indexOf("## Order objects"), page.indexOf("<!-- generated:order-objects -->"))
    for (const reason of AcquiringOrder.CloseReason.literals) expect(orders).toContain(`\`${reason}\``)
  })

  it("names every operation path and every code of the catalogue", () => {
    for (const path of operationPaths) expect(page).toContain(`POST ${apiBasePath}${path}`)
    for (const entry of Object.values(codeCatalogue)) expect(page).toContain(`| \`${entry.code}\``)
  })
})

describe("npm run api-doc's command line", () => {
  const script = fileURLToPath(new URL("../src/cli/apiDoc.ts", import.meta.url))
  const run = (args: ReadonlyArray<string>) => runScript(script, args, import.meta.dirname)

  // A child process each: on a busy machine that takes seconds.
  it("answers --help with its usage and 0, and an unknown option or a word in one line and 2, writing nothing", {
    timeout: 30_000,
  }, async () => {
    const help = await run(["--help"])
    expect([help.code, help.stderr]).toEqual([0, ""])
    expect(help.stdout).toContain("npm run api-doc")
    expect(help.stdout).not.toContain("wrote")
    expect(await run(["--x"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "api-doc: unknown option --x; --help for usage\n",
    })
    expect(await run(["docs/api.md"])).toEqual({
      code: 2,
      stdout: "",
      stderr: "api-doc: takes no arguments; --help for usage\n",
    })
  })
})

describe("the field rows of a schema", () => {
  it("flatten nested objects and list items by path, money as one field, with its form and whether it is required", () => {
    const money = {
      type: "object",
      properties: { amount: { anyOf: [{ type: "number" }, { type: "string" }] }, currency: { enum: ["AED"] } },
    }
    const schema = {
      type: "object",
      properties: {
        subject: { type: "string", maxLength: 12 },
        total: money,
        items: { type: "array", items: { type: "object", properties: { flag: { enum: ["YES", "NO"] } } } },
        acquireOrder: { type: "object", properties: { status: { type: "string" } } },
      },
      required: ["subject", "total"],
    }
    expect(fieldRows(schema, new Set(["acquireOrder"]))).toEqual([
      { path: "subject", form: "text, at most 12", required: true },
      { path: "total", form: "money (AED)", required: true },
      { path: "items", form: "list", required: false },
      { path: "items[].flag", form: "one of `YES`, `NO`", required: false },
      { path: "acquireOrder", form: "the `acquireOrder` object", required: false },
    ])
  })
})
