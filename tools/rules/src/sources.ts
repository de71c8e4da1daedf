/** The files the rules read: every source file under `src/` of each project in libs/, apps/ and tools/. */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, sep } from "node:path"
import { type ParsedFile, parseFile } from "./syntax.ts"

const projectGroups = ["libs", "apps", "tools"]

const sourceFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path)
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : []
  })

const isDirectory = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true

/** The `src/` folders of the workspace at `root`, each of a project (a folder with a package.json). */
export const sourceRoots = (root: string): Array<string> =>
  projectGroups
    .filter((group) => isDirectory(join(root, group)))
    .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name)))
    .filter((dir) => statSync(join(dir, "package.json"), { throwIfNoEntry: false }) !== undefined)
    .map((dir) => join(dir, "src"))
    .filter(isDirectory)

/** Every source file of the workspace at `root`, parsed, its path from the root. */
export const readSources = (root: string): Array<ParsedFile> =>
  sourceRoots(root)
    .flatMap(sourceFiles)
    .sort()
    .map((file) => parseFile(relative(root, file).split(sep).join("/"), readFileSync(file, "utf8")))
