/**
 * Engines are honest: in a folder where the packed libs are installed,
 * every package imports on a Node exactly when its `engines.node` admits
 * that Node, for every Node on the PATH outside node_modules (the machine's
 * own, Node 20 on these machines) and the example's pinned Node 24. And the
 * built kernel and acquiring libs run (src/domainSmoke.mjs) on each Node
 * the two admit.
 */
import { spawnSync } from "node:child_process"
import { copyFileSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { meetsEngines } from "./engines.ts"
import { type NodeBinary, nodeAt, nodesOnPath } from "./nodes.ts"

const installedMizanPackages = (folder: string) =>
  readdirSync(join(folder, "node_modules", "@mizan")).map((name) => {
    const manifest = JSON.parse(readFileSync(join(folder, "node_modules", "@mizan", name, "package.json"), "utf8"))
    return { name: manifest.name as string, engines: manifest.engines.node as string }
  })

const runsOn = (node: NodeBinary, folder: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv) =>
  spawnSync(node.path, args, { cwd: folder, env, encoding: "utf8" })

export const checkEngines = (folder: string, env: NodeJS.ProcessEnv): void => {
  const nodes = [...nodesOnPath(env.PATH ?? ""), nodeAt(join(folder, "node_modules", ".bin", "node"))]
  const problems: Array<string> = []
  copyFileSync(new URL("./domainSmoke.mjs", import.meta.url), join(folder, "domainSmoke.mjs"))
  const packages = installedMizanPackages(folder)
  for (const node of nodes) {
    for (const pkg of packages) {
      const admitted = meetsEngines(pkg.engines, node.version)
      const result = runsOn(
        node,
        folder,
        ["--input-type=module", "-e", `await import(${JSON.stringify(pkg.name)})`],
        env,
      )
      if ((result.status === 0) !== admitted)
        problems.push(
          `${pkg.name} (engines ${pkg.engines}) ${admitted ? "fails" : "imports"} on Node ${node.version}: ${result.stderr.split("\n").find((l) => l.includes("Error")) ?? ""}`,
        )
    }
    const domainAdmitted = packages
      .filter((p) => p.name === "@mizan/kernel" || p.name === "@mizan/acquiring")
      .every((p) => meetsEngines(p.engines, node.version))
    if (!domainAdmitted) continue
    const smoke = runsOn(node, folder, ["domainSmoke.mjs"], env)
    if (smoke.status !== 0) problems.push(`kernel + acquiring fail on Node ${node.version}: ${smoke.stderr}`)
    else process.stdout.write(smoke.stdout)
  }
  console.log(`Engines: ${packages.length} packages tried on Node ${nodes.map((n) => n.version).join(", ")}`)
  if (problems.length > 0) throw new Error(`Engines claims broken:\n  ${problems.join("\n  ")}`)
}
