/**
 * The packages a user embeds: every lib whose package.json is not private,
 * and the audit (CONTRIBUTING.md, "Packages"). The service's apps and the
 * tools are private and never packed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

export interface Manifest {
  readonly name: string
  readonly version?: string
  readonly private?: boolean
  readonly description?: string
  readonly license?: string
  readonly files?: ReadonlyArray<string>
  readonly engines?: { readonly node?: string }
  readonly bin?: Readonly<Record<string, string>>
  readonly exports?: Readonly<Record<string, string | Readonly<Record<string, string>>>>
  readonly dependencies?: Readonly<Record<string, string>>
  readonly peerDependencies?: Readonly<Record<string, string>>
}

export interface WorkspacePackage {
  /** As `libs/kernel`, from the repository's root. */
  readonly folder: string
  readonly manifest: Manifest
}

/** Every package of the workspace at `root` (libs, apps, tools). */
export const workspacePackages = (root: string): Array<WorkspacePackage> =>
  ["libs", "apps", "tools"].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => `${group}/${name}`)
      .filter((folder) => existsSync(join(root, folder, "package.json")))
      .sort()
      .map((folder) => ({ folder, manifest: JSON.parse(readFileSync(join(root, folder, "package.json"), "utf8")) })),
  )

export const publishablePackages = (root: string): Array<WorkspacePackage> =>
  workspacePackages(root).filter((p) => p.manifest.private !== true)

/** The file `npm pack` writes for a package: `@mizan/kernel` 0.1.0 is `mizan-kernel-0.1.0.tgz`. */
export const tarballName = (manifest: Manifest): string =>
  `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version ?? "0.0.0"}.tgz`
