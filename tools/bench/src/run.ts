/**
 * `npm run bench -- NAME` runs tools/bench/src/<NAME>.ts. Benchmarks are not
 * part of `npm test`: each prints its figures beside a baseline measured in
 * the same run, as ratios (see tools/bench/README.md).
 */
import { readdirSync } from "node:fs"
import { type CommandLineError, readCommandLine } from "@mizan/command-line"

const available = readdirSync(import.meta.dirname)
  .filter(
    (f) =>
      f.endsWith(".ts") &&
      ![
        "run.ts",
        "harness.ts",
        "gatewayLoad.ts",
        "bareServer.ts",
        "readPages.ts",
        "sealingGateway.ts",
        "storeSetUp.ts",
      ].includes(f),
  )
  .map((f) => f.slice(0, -3))
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
