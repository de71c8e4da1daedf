import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { readmeExamples, runnableBlocksOf } from "../src/readmeExamples.ts"

const fence = "```"

describe("the READMEs' runnable examples", () => {
  it("takes the blocks fenced as runnable TypeScript, whole, and leaves sketches and other languages", () => {
    const markdown = [
      "# A lib",
      `${fence}ts runnable`,
      'import { fils } from "@mizan/kernel"',
      "",
      "console.log(fils(1))",
      fence,
      `${fence}ts`,
      "await myService.send(command)",
      fence,
      `${fence}sh`,
      "npm test",
      fence,
      `${fence}ts runnable  `,
      "console.log(2)",
      `${fence}  `,
    ].join("\n")
    expect(runnableBlocksOf(markdown)).toEqual([
      'import { fils } from "@mizan/kernel"\n\nconsole.log(fils(1))\n',
      "console.log(2)\n",
    ])
  })

  describe("of a workspace", () => {
    let root = ""
    afterEach(() => rmSync(root, { recursive: true, force: true }))

    const lib = (folder: string, manifest: object, readme?: string) => {
      mkdirSync(join(root, folder), { recursive: true })
      writeFileSync(join(root, folder, "package.json"), JSON.stringify(manifest))
      if (readme !== undefined) writeFileSync(join(root, folder, "README.md"), readme)
    }

    it("names each after its lib and its place, from the publishable libs alone", () => {
      root = mkdtempSync(join(tmpdir(), "readme-examples-"))
      for (const group of ["libs", "apps", "tools"]) mkdirSync(join(root, group))
      const two = `${fence}ts runnable\nconsole.log(1)\n${fence}\n\n${fence}ts runnable\nconsole.log(2)\n${fence}\n`
      lib("libs/kernel", { name: "@mizan/kernel" }, two)
      lib("libs/bare", { name: "@mizan/bare" })
      lib("apps/gateway", { name: "@mizan/gateway", private: true }, two)
      expect(readmeExamples(root)).toEqual([
        { file: "kernel-1.ts", source: "console.log(1)\n" },
        { file: "kernel-2.ts", source: "console.log(2)\n" },
      ])
    })
  })
})
