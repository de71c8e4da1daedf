/** The files of a repository that the link check reads: Markdown and sources, outside installed, built and ignored folders. */
import { readdirSync } from "node:fs"
import { join, relative } from "node:path"

// `.stryker-tmp` holds the copies a mutation run works on (npm run mutation), which may run beside npm test.
const skippedFolders = new Set([
  "node_modules",
  ".git",
  ".nx",
  "dist",
  "coverage",
  "data",
  "tmp",
  "fixtures",
  ".stryker-tmp",
])

export const markdownPattern = /\.md$/
export const sourcePattern = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/

/** Every Markdown and source file under `root`, as paths relative to it. */
export const repositoryFiles = (root: string, dir: string = root): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return skippedFolders.has(entry.name) ? [] : repositoryFiles(root, path)
    return markdownPattern.test(entry.name) || sourcePattern.test(entry.name) ? [relative(root, path)] : []
  })
