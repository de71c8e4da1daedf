import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { checkGuide, guideDisagreements, guideOf } from "../src/guide.ts"
import { repositoryRoot } from "../src/pack.ts"

const example = join(repositoryRoot, "examples", "platform-service")
const readme = readFileSync(join(example, "README.md"), "utf8")
const manifest = JSON.parse(readFileSync(join(example, "package.json"), "utf8"))

/** A guide of one settings block and one install line of each kind. */
const guide = (settings: string, install: string, devInstall: string) =>
  ["```json package.json", settings, "```", "", "```sh", install, devInstall, "npm start", "```", ""].join("\n")

describe("the embedding guide", () => {
  it("makes exactly the example's package.json: its dependencies, the pinned node and allowScripts", () => {
    expect(guideDisagreements(guideOf(readme), manifest)).toEqual([])
    expect(guideOf(readme).devDependencies.node).toBe(manifest.devDependencies.node)
    expect(guideOf(readme).settings.allowScripts).toMatchObject({ node: true })
  })

  it("reads tarballs by path as the packed libs' folder, continued lines and indented blocks", () => {
    const read = guideOf(
      [
        "```sh",
        "npm install effect@4.1.0 \\",
        "  ./mizan-order-flows-0.1.0.tgz   # the flows",
        "```",
        "- the tests:",
        "  ```sh",
        "  npm install -D @types/node@24.19.2",
        "  ```",
      ].join("\n"),
    )
    expect(read).toEqual({
      dependencies: { effect: "4.1.0", "@mizan/order-flows": "file:../../dist/mizan-order-flows-0.1.0.tgz" },
      devDependencies: { "@types/node": "24.19.2" },
      settings: {},
    })
  })

  it("names each way a package.json differs: no pinned node, other allowScripts, a dependency it never installs", () => {
    const written = guide(
      '{ "type": "module", "allowScripts": { "node": true } }',
      "npm install effect@4.1.0",
      "npm install --save-dev node@24.21.0",
    )
    const stale = {
      type: "module",
      allowScripts: { esbuild: true },
      dependencies: { effect: "4.1.0", "@mizan/audit": "file:../../dist/mizan-audit-0.1.0.tgz" },
      devDependencies: {},
    }
    expect(guideDisagreements(guideOf(written), stale)).toEqual([
      "dependencies has @mizan/audit, which the guide never installs",
      "the guide installs node 24.21.0; devDependencies has none",
      'the guide sets allowScripts to {"node":true}; package.json has {"esbuild":true}',
    ])
    expect(() => checkGuide(written, stale)).toThrow(/guide and the example's package.json disagree/)
  })

  it("refuses a package the guide installs without a version", () => {
    expect(() => guideOf(guide("{}", "npm install effect", ""))).toThrow(
      "the guide installs effect without a version: pin it, as the example does",
    )
  })
})
