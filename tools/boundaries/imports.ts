/**
 * What the boundary check (check.ts) and the circle check (circles.ts) read
 * of the workspace: its projects, their source files and the imports a
 * source text names.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"

export interface Project {
  readonly name: string
  readonly dir: string
  readonly tags: ReadonlyArray<string>
  readonly declared: ReadonlySet<string>
}

/** The folders whose subfolders with a package.json are projects. */
const projectGroups = ["libs", "apps", "tools", "examples"]

export const readProjects = (root: string): Array<Project> =>
  projectGroups.flatMap((group) =>
    (statSync(join(root, group), { throwIfNoEntry: false })?.isDirectory() ? readdirSync(join(root, group)) : [])
      .map((name) => join(root, group, name))
      .filter((dir) => statSync(join(dir, "package.json"), { throwIfNoEntry: false }) !== undefined)
      .map((dir) => {
        const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
        return {
          name: pkg.name,
          dir,
          tags: pkg.nx?.tags ?? [],
          declared: new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]),
        }
      }),
  )

/** Folders no source of the repository's own is in: installed packages, builds, caches and hidden tools' folders. */
const notSources = new Set(["node_modules", "dist", "data", "coverage"])

/** Every TypeScript and JavaScript file under `dir`, outside installed packages, builds and hidden folders. */
export const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return notSources.has(entry.name) || entry.name.startsWith(".") ? [] : sourceFiles(path)
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) ? [path] : []
  })

const importPattern =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s+["']([^"']+)["']/gm

/** The import specifiers of a source text: static, type-only, re-export, side-effect and dynamic imports. */
export const importsOf = (source: string): Array<string> =>
  [...source.matchAll(importPattern)].map((m) => m[1] ?? m[2] ?? m[3] ?? "").filter((s) => s !== "")

/** The package an import specifier names: `effect/Schema` is `effect`, `@mizan/x/testing` is `@mizan/x`. */
export const packageOf = (specifier: string): string => {
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier)
}
