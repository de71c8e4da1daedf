/**
 * A published package's README travels in its tarball, which holds only
 * the package's own files (its `files`, with package.json, the README and
 * the licence): a relative link to anything else, the repository's docs or
 * another package, is broken for every user who reads it in node_modules or
 * on a registry. So each relative link of a published package's README
 * must name a file the package ships; anything else is linked absolutely
 * or named in words.
 */
import { existsSync, readFileSync } from "node:fs"
import { join, normalize, relative } from "node:path"
import { isExternal } from "./check.ts"
import { linksOf } from "./markdown.ts"
import { packageFolders } from "./packages.ts"

interface Manifest {
  readonly private?: boolean
  readonly files?: ReadonlyArray<string>
}

/** What npm packs whatever `files` says. */
const alwaysPacked = /^(package\.json|readme(\.[^/]*)?|licen[cs]e(\.[^/]*)?)$/i

/** Whether a path inside the package is among what it ships: under one of its `files`, or packed always. */
const ships = (path: string, files: ReadonlyArray<string> | undefined): boolean =>
  files === undefined ||
  alwaysPacked.test(path) ||
  files.some((entry) => {
    const folder = entry.replace(/\/+$/, "")
    return path === folder || path.startsWith(`${folder}/`)
  })

/** Every relative link of a published package's README that its tarball does not hold, one line each. */
export const packedLinkProblems = (root: string): Array<string> =>
  packageFolders(root).flatMap((folder) => {
    const manifest = JSON.parse(readFileSync(join(root, folder, "package.json"), "utf8")) as Manifest
    const readme = `${folder}/README.md`
    if (manifest.private === true || !existsSync(join(root, readme))) return []
    return linksOf(readFileSync(join(root, readme), "utf8"))
      .filter((link) => !isExternal(link.target) && !link.target.startsWith("#"))
      .flatMap((link) => {
        const path = decodeURI(link.target.split("#")[0] ?? "")
        const inPackage = relative(folder, normalize(join(folder, path)))
        if (inPackage.startsWith(".."))
          return [
            `${readme}:${link.line}: ${link.target} is outside the published package, so its tarball lacks it: link it absolutely or name it in words`,
          ]
        if (!ships(inPackage, manifest.files))
          return [
            `${readme}:${link.line}: ${link.target} is not among the files the package publishes (${(manifest.files ?? []).join(", ")})`,
          ]
        return []
      })
  })
