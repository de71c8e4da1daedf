/**
 * What a published package must say about itself (CONTRIBUTING.md,
 * "Packages"), for every lib a user embeds and the audit, and that the
 * gateway, the notifier and the tools stay private. The expected values
 * are the ones the issue asks for, written here.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repositoryRoot } from "../src/pack.ts"
import { publishablePackages, workspacePackages } from "../src/publishable.ts"

const embeddable = [
  ...[
    "acquiring",
    "card-transfer",
    "command-line",
    "eventsourcing",
    "kernel",
    "merchant-client",
    "notification",
    "order-flows",
    "order-views",
    "protocol",
    "refund",
    "store-kurrentdb",
    "store-postgres",
    "store-sqlite",
    "stores",
    "telemetry",
    "test-clock",
    "transfer",
  ].map((name) => `libs/${name}`),
  "apps/audit",
]

const publishable = publishablePackages(repositoryRoot)

describe("the packages a user embeds", () => {
  it("are exactly the embeddable libs and the audit; the service's apps and the tools stay private", () => {
    expect(publishable.map((p) => p.folder)).toEqual(embeddable)
    const privateFolders = workspacePackages(repositoryRoot)
      .filter((p) => p.manifest.private === true)
      .map((p) => p.folder)
    expect(privateFolders).toContain("apps/gateway")
    expect(privateFolders).toContain("apps/notifier")
    expect(privateFolders.filter((f) => f.startsWith("tools/")).length).toBe(
      workspacePackages(repositoryRoot).filter((p) => p.folder.startsWith("tools/")).length,
    )
  })

  it.each(publishable)(
    "$folder says its version 0.1.0, a description, Apache-2.0, its files and engines",
    ({ manifest }) => {
      expect(manifest.version).toBe("0.1.0")
      expect(manifest.license).toBe("Apache-2.0")
      expect(manifest.description?.length).toBeGreaterThan(10)
      expect(manifest.files).toEqual(manifest.bin === undefined ? ["dist", "src"] : ["bin", "dist", "src"])
      expect(manifest.engines?.node).toMatch(/^>=\d+\.\d+\.\d+$/)
    },
  )

  it.each(publishable)(
    "$folder exports each entry from src for the workspace and from dist for users",
    ({ folder, manifest }) => {
      expect(manifest.exports?.["."]).toBeDefined()
      for (const [subpath, conditions] of Object.entries(manifest.exports ?? {})) {
        expect(typeof conditions, subpath).toBe("object")
        const entry = conditions as Record<string, string>
        // Order matters: Node and TypeScript take the first condition they know.
        expect(Object.keys(entry), subpath).toEqual(["@mizan/source", "types", "import"])
        const source = entry["@mizan/source"] ?? ""
        expect(source, subpath).toMatch(/^\.\/src\/.*\.ts$/)
        expect(existsSync(join(repositoryRoot, folder, source)), source).toBe(true)
        const built = source.replace("./src/", "./dist/").replace(/\.ts$/, "")
        expect(entry.types, subpath).toBe(`${built}.d.ts`)
        expect(entry.import, subpath).toBe(`${built}.js`)
      }
    },
  )

  it.each(publishable.filter(({ manifest }) => manifest.bin !== undefined))(
    "$folder's commands are plain JavaScript in bin/, which Node runs from node_modules",
    ({ folder, manifest }) => {
      for (const [command, file] of Object.entries(manifest.bin ?? {})) {
        expect(file, command).toMatch(/^\.\/bin\/[a-z-]+\.js$/)
        expect(readFileSync(join(repositoryRoot, folder, file), "utf8"), command).toMatch(/^#!\/usr\/bin\/env node\n/)
      }
    },
  )

  it.each(publishable)("$folder depends on the other libs at their own version range", ({ manifest }) => {
    for (const [name, range] of Object.entries(manifest.dependencies ?? {}))
      if (name.startsWith("@mizan/")) expect(range, name).toBe("^0.1.0")
  })
})
