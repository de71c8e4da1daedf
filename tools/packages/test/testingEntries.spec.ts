/**
 * The testing entries a platform imports into whatever test runner it
 * has: a package that does not declare vitest as a peer dependency (the
 * domain libs, which need fast-check alone) must load where no vitest is
 * installed, and so must the property-testing kit's base of
 * `@mizan/eventsourcing` (`/testing/properties`), on which the domain kits
 * stand. Each entry is imported by a Node of its own that cannot find
 * vitest, on the packages' sources.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { repositoryRoot } from "../src/pack.ts"
import { type Manifest, publishablePackages } from "../src/publishable.ts"

const declaresVitest = (manifest: Manifest) => manifest.peerDependencies?.vitest !== undefined

const entriesWithoutVitest = [
  ...publishablePackages(repositoryRoot)
    .filter(({ manifest }) => manifest.exports?.["./testing"] !== undefined && !declaresVitest(manifest))
    .map(({ manifest }) => `${manifest.name}/testing`),
  "@mizan/eventsourcing/testing/properties",
]

const hooks = mkdtempSync(join(tmpdir(), "no-vitest-"))
afterAll(() => rmSync(hooks, { recursive: true, force: true }))
writeFileSync(
  join(hooks, "hooks.mjs"),
  `export const resolve = (specifier, context, next) => {
  if (/^(vitest|@vitest\\/|@effect\\/vitest|@fast-check\\/vitest)/.test(specifier))
    throw Object.assign(new Error("Cannot find package '" + specifier + "' (hidden: no vitest here)"), { code: "ERR_MODULE_NOT_FOUND" })
  return next(specifier, context)
}
`,
)
writeFileSync(
  join(hooks, "register.mjs"),
  `import { register } from "node:module"\nregister("./hooks.mjs", import.meta.url)\n`,
)

/** What importing `entry` answers in a Node that cannot find vitest: its exit status and what it wrote. */
const importWithoutVitest = (entry: string) => {
  const imported = spawnSync(
    process.execPath,
    [
      "--conditions=@mizan/source",
      "--import",
      join(hooks, "register.mjs"),
      "--input-type=module",
      "--eval",
      `await import(${JSON.stringify(entry)})`,
    ],
    { cwd: repositoryRoot, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } },
  )
  return { status: imported.status, stderr: imported.stderr }
}

// Each test starts a Node process that loads an entry from its sources: 1-2 s alone, over
// vitest's 5 s default when npm test runs two projects beside it on two cores.
describe("testing entries of packages that do not declare vitest", { timeout: 30_000 }, () => {
  it("are the domain libs' and the property-testing kit's base", () => {
    expect(entriesWithoutVitest).toEqual(
      expect.arrayContaining([
        "@mizan/acquiring/testing",
        "@mizan/refund/testing",
        "@mizan/transfer/testing",
        "@mizan/card-transfer/testing",
        "@mizan/notification/testing",
        "@mizan/eventsourcing/testing/properties",
      ]),
    )
  })

  it.each(entriesWithoutVitest)("%s loads where no vitest is installed", (entry) => {
    expect(importWithoutVitest(entry)).toEqual({ status: 0, stderr: "" })
  })

  it("would see a vitest import: the full event-sourcing testing entry, which declares it, needs it", () => {
    const imported = importWithoutVitest("@mizan/eventsourcing/testing")
    expect(imported.status).not.toBe(0)
    expect(imported.stderr).toContain("hidden: no vitest here")
  })
})
