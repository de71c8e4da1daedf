/**
 * `npm run test:examples`: the example service as a platform team gets it.
 * Checks that the example's package.json is what its guide's install
 * lines and settings make (src/guide.ts), packs the libs, copies the tarballs and `examples/platform-service` into a
 * temporary folder outside the repository (the example's package.json names
 * the tarballs as `../../dist/...`, the same layout there), installs them
 * and the example's other dependencies from the npm registry, type-checks
 * the example (then again with lib checks on, tsconfig.declarations.json:
 * our packages' declarations as a consumer that does not skip them sees
 * them; the laws' declarations name their event types,
 * src/lawDeclarations.ts) and runs its tests; then type-checks and runs the READMEs'
 * runnable examples on the same tarballs (src/readmeExamples.ts). Nothing
 * there can reach the workspace: npm's node-options (the @mizan/source
 * condition) and the workspace's node_modules/.bin are kept out of its
 * environment.
 * Then every package's engines claim is tried on every Node at hand
 * (src/checkEngines.ts).
 */
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { basename, delimiter, join, sep } from "node:path"
import { checkEngines } from "./checkEngines.ts"
import { checkGuide } from "./guide.ts"
import { checkLawDeclarations } from "./lawDeclarations.ts"
import { packAll, repositoryRoot } from "./pack.ts"
import { checkReadmeExamples } from "./readmeExamples.ts"
import { run } from "./run.ts"

/** The environment of a process that must not see the workspace. */
export const outsideEnv = (env: NodeJS.ProcessEnv, root: string): NodeJS.ProcessEnv => {
  const { NODE_OPTIONS: _options, npm_config_node_options: _npmOptions, ...rest } = env
  const path = (env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => !dir.startsWith(root) || !dir.includes(`${sep}node_modules${sep}`))
    .join(delimiter)
  return { ...rest, PATH: path }
}

const example = "platform-service"

const main = () => {
  const tarballs = packAll(repositoryRoot)
  const scratch = mkdtempSync(join(tmpdir(), "mizan-examples-"))
  // Run as root, embedded PostgreSQL runs its binaries as the `postgres` user, who must reach them in here.
  chmodSync(scratch, 0o755)
  const env = outsideEnv(process.env, repositoryRoot.replace(/[/\\]$/, ""))
  mkdirSync(join(scratch, "dist"))
  for (const tarball of tarballs) copyFileSync(tarball, join(scratch, "dist", basename(tarball)))
  const folder = join(scratch, "examples", example)
  // Installs only what the guide's own lines make: the example is the guide's project.
  checkGuide(
    readFileSync(join(repositoryRoot, "examples", example, "README.md"), "utf8"),
    JSON.parse(readFileSync(join(repositoryRoot, "examples", example, "package.json"), "utf8")),
  )
  cpSync(join(repositoryRoot, "examples", example), folder, {
    recursive: true,
    filter: (source) => !/[/\\](node_modules|data)([/\\]|$)|\.db(-wal|-shm)?$/.test(source),
  })
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: folder, env })
  checkLawDeclarations(folder)
  run("npm", ["run", "typecheck"], { cwd: folder, env })
  run("npx", ["tsc", "-p", "tsconfig.declarations.json"], { cwd: folder, env })
  run("npm", ["test"], { cwd: folder, env })
  checkReadmeExamples(repositoryRoot, folder, join(scratch, "readme-examples"), { env })
  checkEngines(folder, env)
  rmSync(scratch, { recursive: true, force: true })
  console.log(`Examples: ${example} and the READMEs' runnable examples type-check and pass on the packed libs`)
}

if (import.meta.main) main()
