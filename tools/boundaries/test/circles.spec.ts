import { describe, expect, it } from "vitest"
import { importCircles } from "../circles.ts"
import { pkg, workspace } from "./workspace.ts"

describe("import circles", () => {
  it("accepts imports that never come back, a diamond among them", () => {
    const root = workspace({
      "libs/kernel/package.json": pkg("@mizan/kernel", "scope:kernel"),
      "libs/kernel/src/index.ts": `export * from "./a.ts"\nexport * from "./b.ts"`,
      "libs/kernel/src/a.ts": `import { leaf } from "./leaf.ts"`,
      "libs/kernel/src/b.ts": `import type { Leaf } from "./leaf.ts"`,
      "libs/kernel/src/leaf.ts": `export const leaf = 1`,
    })
    expect(importCircles(root)).toEqual([])
  })

  it("names a circle of two modules once, from its first module in sorted order", () => {
    const root = workspace({
      "apps/audit/package.json": pkg("@mizan/audit", "scope:app"),
      "apps/audit/src/registry.ts": `import { slimmed } from "./fold.ts"`,
      "apps/audit/src/fold.ts": `import type { MoneyFigures } from "./registry.ts"`,
    })
    expect(importCircles(root)).toEqual([
      "import circle: apps/audit/src/fold.ts -> apps/audit/src/registry.ts -> apps/audit/src/fold.ts",
    ])
  })

  it("names the shortest way round a circle, across folders, not a longer one through the same modules", () => {
    const root = workspace({
      "apps/audit/package.json": pkg("@mizan/audit", "scope:app"),
      "apps/audit/src/a.ts": `import { b } from "./replay/b.ts"\nimport { d } from "./d.ts"`,
      "apps/audit/src/replay/b.ts": `import { c } from "../model/c.ts"`,
      "apps/audit/src/model/c.ts": `import { a } from "../a.ts"`,
      "apps/audit/src/d.ts": `import { b } from "./replay/b.ts"`,
    })
    expect(importCircles(root)).toEqual([
      "import circle: apps/audit/src/a.ts -> apps/audit/src/replay/b.ts -> apps/audit/src/model/c.ts -> apps/audit/src/a.ts",
    ])
  })

  it("finds circles in tests, in tools outside any project, through a .js specifier and in a module importing itself", () => {
    const root = workspace({
      "libs/eventsourcing/package.json": pkg("@mizan/eventsourcing", "scope:kernel"),
      "libs/eventsourcing/test/contract.ts": `export { chain } from "./chainContract.js"`,
      "libs/eventsourcing/test/chainContract.ts": `const c = await import("./contract.ts")`,
      "tools/mutation/run.ts": `import "./run.ts"`,
    })
    expect(importCircles(root)).toEqual([
      "import circle: libs/eventsourcing/test/chainContract.ts -> libs/eventsourcing/test/contract.ts -> libs/eventsourcing/test/chainContract.ts",
      "import circle: tools/mutation/run.ts -> tools/mutation/run.ts",
    ])
  })

  it("reads no installed package or build: a circle there is not the repository's", () => {
    const root = workspace({
      "node_modules/x/a.js": `import "./b.js"`,
      "node_modules/x/b.js": `import "./a.js"`,
      "libs/kernel/dist/a.js": `import "./b.js"`,
      "libs/kernel/dist/b.js": `import "./a.js"`,
    })
    expect(importCircles(root)).toEqual([])
  })

  it("finds projects that import each other, a test's import counting as much as a source's", () => {
    const root = workspace({
      "apps/audit/package.json": pkg("@mizan/audit", "scope:app"),
      "apps/audit/test/cli.spec.ts": `import { generateHistory } from "@mizan/histories"`,
      "tools/histories/package.json": pkg("@mizan/histories", "scope:tool"),
      "tools/histories/src/world.ts": `import type { SandboxMember } from "@mizan/gateway/sandbox/memberDirectory"`,
      "apps/gateway/package.json": pkg("@mizan/gateway", "scope:app"),
      "apps/gateway/test/sealing.spec.ts": `import { runCliToText } from "@mizan/audit"\nimport { x } from "@mizan/gateway/app"`,
    })
    expect(importCircles(root)).toEqual([
      "import circle among projects: @mizan/audit -> @mizan/histories -> @mizan/gateway -> @mizan/audit",
    ])
  })
})
