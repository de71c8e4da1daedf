/**
 * node:sqlite is what sets a package's lowest Node: its setReturnArrays and
 * isTransaction, which store-sqlite uses, came in Node 24.0.0. A package that
 * reaches node:sqlite (itself or through the libs it depends on) must say
 * so in its engines; every other one runs on Node 20 (the built libs are
 * tried on both by npm run test:examples).
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repositoryRoot } from "../src/pack.ts"
import { publishablePackages, type WorkspacePackage } from "../src/publishable.ts"

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  )

const importsSqlite = (pkg: WorkspacePackage): boolean =>
  sourceFiles(join(repositoryRoot, pkg.folder, "src")).some((file) =>
    /from\s+["']node:sqlite["']/.test(readFileSync(file, "utf8")),
  )

const packages = publishablePackages(repositoryRoot)
const byName = new Map(packages.map((p) => [p.manifest.name, p]))

const reachesSqlite = (pkg: WorkspacePackage, seen = new Set<string>()): boolean => {
  if (seen.has(pkg.manifest.name)) return false
  seen.add(pkg.manifest.name)
  const dependencies = Object.keys(pkg.manifest.dependencies ?? {}).flatMap((name) => byName.get(name) ?? [])
  return importsSqlite(pkg) || dependencies.some((dependency) => reachesSqlite(dependency, seen))
}

describe("the lowest Node each package claims", () => {
  it("the domain libs, kernel, eventsourcing and order-flows reach no node:sqlite", () => {
    const pure = [
      "kernel",
      "eventsourcing",
      "acquiring",
      "refund",
      "transfer",
      "card-transfer",
      "notification",
      "order-flows",
    ]
    for (const name of pure) expect(reachesSqlite(byName.get(`@mizan/${name}`) as WorkspacePackage), name).toBe(false)
  })

  it.each(packages)("$folder claims Node 24 exactly when it reaches node:sqlite, Node 20 otherwise", (pkg) => {
    expect(pkg.manifest.engines?.node).toBe(reachesSqlite(pkg) ? ">=24.0.0" : ">=20.20.0")
  })
})
