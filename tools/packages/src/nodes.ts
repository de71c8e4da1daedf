/**
 * Every Node on the PATH outside node_modules (the machine's own, however
 * many there are), with its version: the Nodes a user of the packages may
 * run them on, besides the Node 24 the project pins.
 */
import { execFileSync } from "node:child_process"
import { accessSync, constants, realpathSync } from "node:fs"
import { delimiter, join, sep } from "node:path"

export interface NodeBinary {
  readonly path: string
  readonly version: string
}

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

export const nodeAt = (path: string): NodeBinary => ({
  path,
  version: execFileSync(path, ["--version"], { encoding: "utf8" }).trim(),
})

export const nodesOnPath = (pathVariable: string): Array<NodeBinary> => {
  const seen = new Set<string>()
  const nodes: Array<NodeBinary> = []
  for (const dir of pathVariable.split(delimiter).filter((d) => d !== "")) {
    const candidate = join(dir, "node")
    if (!executable(candidate)) continue
    const real = realpathSync(candidate)
    if (seen.has(real) || real.split(sep).includes("node_modules")) continue
    seen.add(real)
    nodes.push(nodeAt(real))
  }
  return nodes
}
