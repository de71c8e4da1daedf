/**
 * `npm run pack`: builds every publishable lib (Nx, cached) and writes one
 * tarball per package, as `npm pack` makes it, into the root `dist/`.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { publishablePackages, tarballName } from "./publishable.ts"
import { run } from "./run.ts"

/** Packs into `<root>/dist` and answers the tarballs' paths; old tarballs there are removed first. */
export const packAll = (root: string): Array<string> => {
  const packages = publishablePackages(root)
  const destination = join(root, "dist")
  mkdirSync(destination, { recursive: true })
  for (const file of readdirSync(destination)) if (file.endsWith(".tgz")) rmSync(join(destination, file))
  run("npm", ["run", "build"], { cwd: root })
  const workspaces = packages.flatMap((p) => ["--workspace", p.folder])
  run("npm", ["pack", "--pack-destination", destination, "--silent", ...workspaces], { cwd: root })
  return packages.map((p) => join(destination, tarballName(p.manifest)))
}

export const repositoryRoot = fileURLToPath(new URL("../../..", import.meta.url))

if (import.meta.main) {
  const tarballs = packAll(repositoryRoot)
  console.log(`Packed ${tarballs.length} packages into dist/`)
}
