import { describe, expect, it } from "vitest"
import { boundaryProblems, importsOf, speaksDomainLanguage } from "../check.ts"
import { pkg, workspace } from "./workspace.ts"

describe("module boundaries", () => {
  it("reads static, re-export, side-effect and dynamic imports", () => {
    const source = `import { a } from "x"\nexport * from "./y.ts"\nimport "z"\nconst m = await import("w")\nimport type { T } from "@s/t/deep"`
    expect(importsOf(source)).toHaveLength(5)
    expect(
      importsOf(
        `import { a } from "x"\nexport * from "./y.ts"\nimport "z"\nconst m = await import("w")\nimport type { T } from "@s/t/deep"`,
      ),
    ).toEqual(expect.arrayContaining(["x", "./y.ts", "z", "w", "@s/t/deep"]))
  })

  it("accepts a domain lib that imports only effect, kernel and eventsourcing", () => {
    const root = workspace({
      "libs/refund/package.json": pkg("@mizan/refund", "scope:domain", ["@mizan/kernel", "@mizan/eventsourcing"]),
      "libs/refund/src/a.ts": `import { Schema } from "effect/Schema"\nimport { fils } from "@mizan/kernel"\nimport { fold } from "@mizan/eventsourcing"\nimport { x } from "./b.ts"`,
    })
    expect(boundaryProblems(root)).toEqual([])
  })

  it("refuses a domain lib that imports the file system, a store or another domain lib", () => {
    const root = workspace({
      "libs/refund/package.json": pkg("@mizan/refund", "scope:domain", ["@mizan/acquiring", "@mizan/store-sqlite"]),
      "libs/refund/src/a.ts": `import { readFileSync } from "node:fs"\nimport { x } from "@mizan/acquiring"\nimport { y } from "@mizan/store-sqlite"`,
    })
    const problems = boundaryProblems(root)
    expect(problems).toHaveLength(3)
    expect(problems[0]).toMatch(/libs\/refund\/src\/a.ts: a domain lib may import only .* not node:fs/)
  })

  it("lets a domain lib's testing entry import fast-check, and nothing else of the domain", () => {
    const root = workspace({
      "libs/refund/package.json": pkg("@mizan/refund", "scope:domain", ["@mizan/kernel"]),
      "libs/refund/src/testing/model.ts": `import fc from "fast-check"\nimport { fils } from "@mizan/kernel"`,
      "libs/refund/src/decide.ts": `import fc from "fast-check"`,
      "libs/refund/src/testing/store.ts": `import { readFileSync } from "node:fs"`,
    })
    expect(boundaryProblems(root)).toEqual([
      "libs/refund/src/decide.ts: a domain lib may import only effect, @mizan/kernel and @mizan/eventsourcing, not fast-check",
      "libs/refund/src/testing/store.ts: a domain lib may import only effect, @mizan/kernel and @mizan/eventsourcing (and fast-check in src/testing), not node:fs",
    ])
  })

  it("refuses a lib that imports an app, and an undeclared workspace import", () => {
    const root = workspace({
      "apps/gateway/package.json": pkg("@mizan/gateway", "scope:app"),
      "libs/protocol/package.json": pkg("@mizan/protocol", "scope:edge", ["@mizan/gateway"]),
      "libs/protocol/src/a.ts": `import { g } from "@mizan/gateway"\nimport { k } from "@mizan/kernel"`,
    })
    expect(boundaryProblems(root)).toEqual([
      "libs/protocol/src/a.ts: a lib must not import the app @mizan/gateway",
      "libs/protocol/src/a.ts: imports @mizan/kernel, which @mizan/protocol's package.json does not declare",
    ])
  })

  it("refuses the index of a package that loads every module, and takes its modules' own paths", () => {
    const root = workspace({
      "apps/gateway/package.json": pkg("@mizan/gateway", "scope:app"),
      "apps/gateway/src/startup/main.ts": `import { NodeRuntime } from "@effect/platform-node"`,
      "apps/gateway/src/startup/app.ts": `import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"`,
    })
    const problems = boundaryProblems(root)
    expect(problems).toHaveLength(1)
    expect(problems[0]).toMatch(
      /^apps\/gateway\/src\/startup\/main.ts: imports @effect\/platform-node: its index loads every module.*NodeHttpServer/,
    )
  })

  it("refuses an app that imports another app, except where the one-process service composes them", () => {
    const root = workspace({
      "apps/notifier/package.json": pkg("@mizan/notifier", "scope:app"),
      "apps/audit/package.json": pkg("@mizan/audit", "scope:app", ["@mizan/notifier"]),
      "apps/audit/src/a.ts": `import { runNotifier } from "@mizan/notifier"`,
      "apps/gateway/package.json": pkg("@mizan/gateway", "scope:app", ["@mizan/notifier", "@mizan/audit"]),
      "apps/gateway/src/startup/service.ts": `import { runNotifier } from "@mizan/notifier"`,
      "apps/gateway/src/health.ts": `import type { NotifierProgress } from "@mizan/notifier"\nimport { replayLog } from "@mizan/audit"`,
    })
    expect(boundaryProblems(root)).toEqual([
      "apps/audit/src/a.ts: an app must not import the app @mizan/notifier (only apps/gateway/src/startup/service.ts composes apps)",
      "apps/gateway/src/health.ts: an app must not import the app @mizan/notifier (only apps/gateway/src/startup/service.ts composes apps)",
      "apps/gateway/src/health.ts: an app must not import the app @mizan/audit (only apps/gateway/src/startup/service.ts composes apps)",
    ])
  })

  it("refuses the wire's body named in a domain lib's sources, by file and line, and leaves the edge and apps alone", () => {
    const root = workspace({
      "libs/refund/package.json": pkg("@mizan/refund", "scope:domain", ["@mizan/kernel"]),
      "libs/refund/src/decide.ts": `const a = 1\nconst detail = "bizContent.amount is more than the refundable"`,
      "libs/refund/src/testing/model.ts": "// the model's refusal names bizContent.amount",
      "libs/refund/src/evolve.ts": `const field = "amountFils"`,
      "libs/kernel/package.json": pkg("@mizan/kernel", "scope:kernel"),
      "libs/kernel/src/issues.ts": `/** bizContent.subject */`,
      "libs/order-flows/package.json": pkg("@mizan/order-flows", "scope:flows", ["@mizan/kernel"]),
      "libs/order-flows/src/flows.ts": `const field = "bizContent.orderNo"`,
      "libs/test-clock/package.json": pkg("@mizan/test-clock", "scope:edge", ["@mizan/kernel"]),
      "libs/test-clock/src/clock.ts": `const field = "bizContent.minutes"`,
      "libs/protocol/package.json": pkg("@mizan/protocol", "scope:edge"),
      "libs/protocol/src/envelope.ts": `const key = "bizContent"`,
      "apps/gateway/package.json": pkg("@mizan/gateway", "scope:app"),
      "apps/gateway/src/pipeline/wireFields.ts": `const prefix = "bizContent."`,
    })
    // Sorted: the order a directory lists its files in is the file system's.
    const problems = boundaryProblems(root).sort()
    expect(problems.map((p) => p.split(": ")[0])).toEqual([
      "libs/kernel/src/issues.ts:1",
      "libs/order-flows/src/flows.ts:1",
      "libs/refund/src/decide.ts:2",
      "libs/refund/src/testing/model.ts:1",
      "libs/test-clock/src/clock.ts:1",
    ])
    expect(problems[2]).toBe(
      "libs/refund/src/decide.ts:2: names bizContent, the wire's body: a domain lib names its commands' fields (amountFils), and the gateway maps them to the wire's",
    )
  })

  it("counts the kernel, event sourcing, the domain, the flows and the test clocks as speaking the domain's language", () => {
    expect(speaksDomainLanguage({ name: "@mizan/eventsourcing", tags: ["scope:kernel"] })).toBe(true)
    expect(speaksDomainLanguage({ name: "@mizan/transfer", tags: ["scope:domain"] })).toBe(true)
    expect(speaksDomainLanguage({ name: "@mizan/test-clock", tags: ["scope:edge"] })).toBe(true)
    expect(speaksDomainLanguage({ name: "@mizan/order-views", tags: ["scope:edge"] })).toBe(false)
    expect(speaksDomainLanguage({ name: "@mizan/protocol", tags: ["scope:edge"] })).toBe(false)
  })
})
