/**
 * Every package speaks for itself: each folder under libs/, apps/ and tools/
 * with a package.json has a README.md, and the root README's layout table
 * names it, so that a newcomer finds every package from the front page.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const packageGroups = ["libs", "apps", "tools"]

/** Every package folder of the repository at `root`, as `libs/kernel`. */
export const packageFolders = (root: string): Array<string> =>
  packageGroups.flatMap((group) =>
    existsSync(join(root, group))
      ? readdirSync(join(root, group))
          .map((name) => `${group}/${name}`)
          .filter((folder) => existsSync(join(root, folder, "package.json")))
          .sort()
      : [],
  )

/** Every package without a README, or missing from the root README's layout table, one line each. */
export const packageProblems = (root: string): Array<string> => {
  const readme = existsSync(join(root, "README.md")) ? readFileSync(join(root, "README.md"), "utf8") : ""
  return packageFolders(root).flatMap((folder) => [
    ...(existsSync(join(root, folder, "README.md")) ? [] : [`${folder}: has no README.md`]),
    ...(readme.includes(`| \`${folder}\``) ? [] : [`README.md: the layout table does not list ${folder}`]),
  ])
}
