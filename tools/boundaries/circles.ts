/**
 * The import-circle check of `npm test`: no module comes back to itself
 * through what it imports, among the relative imports of the whole
 * repository (sources, tests, tools and examples alike), and no project
 * comes back to itself through the @mizan packages its files import.
 *
 * Why none at all: in a circle, which module's top level runs first depends
 * on which one something else imported first, so a constant may be read
 * before it is set (`undefined`, or a TDZ error) in one entry point and not
 * in another; and a circle says that two modules are one part that nobody
 * can read, test or move apart. Its cure is the leaf module both need (the
 * shared types, the shared constants), or one module where there were two.
 * Type-only imports count too: they are the same dependency in the design.
 */
import { existsSync, readFileSync, statSync } from "node:fs"
import { dirname, relative, resolve } from "node:path"
import { importsOf, packageOf, readProjects, sourceFiles } from "./imports.ts"

/** A directed graph: each node's successors, in the order they were found. */
type Graph = ReadonlyMap<string, ReadonlyArray<string>>

/** The file a relative specifier names, if it is one of the repository's: a `.js` specifier may stand for its `.ts` source. */
const resolvedFile = (from: string, specifier: string): string | undefined => {
  const path = resolve(dirname(from), specifier)
  const candidates = [path, path.replace(/\.js$/, ".ts"), path.replace(/\.mjs$/, ".mts")]
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile())
}

/**
 * The strongly connected components of `graph` with a circle in them
 * (Tarjan's algorithm, iterative so that a long chain of imports cannot
 * overflow the stack): two or more nodes, or one that names itself.
 */
const circularComponents = (graph: Graph): Array<ReadonlyArray<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: Array<string> = []
  const found: Array<ReadonlyArray<string>> = []
  let next = 0
  for (const start of graph.keys()) {
    if (index.has(start)) continue
    const work: Array<{ node: string; child: number }> = [{ node: start, child: 0 }]
    index.set(start, next)
    low.set(start, next++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; child: number }
      const successors = graph.get(frame.node) ?? []
      const successor = successors[frame.child++]
      if (successor !== undefined) {
        if (!index.has(successor)) {
          index.set(successor, next)
          low.set(successor, next++)
          stack.push(successor)
          onStack.add(successor)
          work.push({ node: successor, child: 0 })
        } else if (onStack.has(successor))
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(successor) ?? 0))
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0))
      if (low.get(frame.node) !== index.get(frame.node)) continue
      const component: Array<string> = []
      let member: string | undefined
      do {
        member = stack.pop() as string
        onStack.delete(member)
        component.push(member)
      } while (member !== frame.node)
      if (component.length > 1 || successors.includes(frame.node)) found.push(component)
    }
  }
  return found
}

/**
 * One circle through a component, to name in the report: the shortest way
 * from its first node (in sorted order, so the report is stable) back to
 * itself, by breadth-first search within the component.
 */
const circleThrough = (graph: Graph, component: ReadonlyArray<string>): Array<string> => {
  const members = new Set(component)
  const start = [...component].sort()[0] as string
  const cameFrom = new Map<string, string>()
  const queue = [start]
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at] as string
    for (const successor of graph.get(node) ?? []) {
      if (!members.has(successor)) continue
      if (successor === start) {
        const path = [node]
        while (path[0] !== start) path.unshift(cameFrom.get(path[0] as string) as string)
        return [...path, start]
      }
      if (cameFrom.has(successor)) continue
      cameFrom.set(successor, node)
      queue.push(successor)
    }
  }
  return [start, start]
}

const withEdge = (graph: Map<string, Array<string>>, from: string, to: string): void => {
  const successors = graph.get(from) ?? []
  if (!successors.includes(to)) successors.push(to)
  graph.set(from, successors)
}

/** The repository's files and the files each imports by a relative path. */
const fileGraph = (root: string): Graph => {
  const graph = new Map<string, Array<string>>()
  for (const file of sourceFiles(root)) {
    const from = relative(root, file)
    graph.set(from, graph.get(from) ?? [])
    for (const specifier of importsOf(readFileSync(file, "utf8"))) {
      if (!specifier.startsWith(".")) continue
      const target = resolvedFile(file, specifier)
      if (target !== undefined) withEdge(graph, from, relative(root, target))
    }
  }
  return graph
}

/** The projects and the projects each one's files import (sources and tests: a test's import is a dependency too). */
const projectGraph = (root: string): Graph => {
  const projects = readProjects(root)
  const names = new Set(projects.map((project) => project.name))
  const graph = new Map<string, Array<string>>()
  for (const project of projects) {
    graph.set(project.name, graph.get(project.name) ?? [])
    for (const file of sourceFiles(project.dir))
      for (const specifier of importsOf(readFileSync(file, "utf8"))) {
        const pkg = packageOf(specifier)
        if (names.has(pkg) && pkg !== project.name) withEdge(graph, project.name, pkg)
      }
  }
  return graph
}

/** Every import circle of the repository at `root`, one sentence each naming one circle through it. */
export const importCircles = (root: string): Array<string> => {
  const files = fileGraph(root)
  const projects = projectGraph(root)
  return [
    ...circularComponents(files).map((c) => `import circle: ${circleThrough(files, c).join(" -> ")}`),
    ...circularComponents(projects).map(
      (c) => `import circle among projects: ${circleThrough(projects, c).join(" -> ")}`,
    ),
  ].sort()
}
