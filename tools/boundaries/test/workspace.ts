/** A workspace of the given files in a fresh temporary folder, for the checks to read. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"

export const workspace = (files: Record<string, string>): string => {
  const root = mkdtempSync(join(tmpdir(), "boundaries-"))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  for (const group of ["libs", "apps", "tools"]) mkdirSync(join(root, group), { recursive: true })
  return root
}

export const pkg = (name: string, tag: string, deps: Array<string> = []) =>
  JSON.stringify({ name, nx: { tags: [tag] }, dependencies: Object.fromEntries(deps.map((d) => [d, "*"])) })
