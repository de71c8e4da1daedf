/**
 * `npm run bench -- NAME` runs tools/bench/src/<NAME>.ts. Benchmarks are not
 * part of `npm test`: each prints its figures beside a baseline measured in
 * the same run, as ratios (see tools/bench/README.md).
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { type CommandLineError, readCommandLine } from "@mizan/command-line"

/**
 * The benchmarks, by name: the other modules here are their shared parts
 * (the harness, the load generators, the store set-up), which a list read
 * from the folder would offer as benchmarks too.
 */
const available = [
  "sqlite",
  "postgres",
  "gateway",
  "gatewaySteps",
  "notifier",
  "audit",
  "scaleOut",
  "tracing",
  "sealing",
  "hostile",
]
const unknown = available.filter((name) => !existsSync(join(import.meta.dirname, `${name}.ts`)))
if (unknown.length > 0) throw new Error(`run.ts names benchmarks with no source file: ${unknown.join(", ")}`)
const usage = `usage: npm run bench -- NAME   (one of: ${available.join(", ")})`
let line: ReturnType<typeof readCommandLine<{}>>
try {
  line = readCommandLine("bench", process.argv.slice(2), {})
} catch (error) {
  console.error((error as CommandLineError).message)
  process.exit(2)
}
if (line.help) {
  console.log(usage)
  process.exit(0)
}
const [name] = line.positionals
if (name === undefined || !available.includes(name)) {
  console.error(usage)
  process.exit(2)
}
await import(`./${name}.ts`)
