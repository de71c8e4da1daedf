/**
 * `npm run bench -- NAME` runs tools/bench/src/NAME.ts. Benchmarks are not
 * part of `npm test`: each prints its figures beside a baseline measured in
 * the same run, as ratios (see tools/bench/README.md).
 */
import { readdirSync } from "node:fs"

const available = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith(".ts") && !["run.ts", "harness.ts"].includes(f))
  .map((f) => f.slice(0, -3))
const name = process.argv[2]
if (name === undefined || !available.includes(name)) {
  console.error(`usage: npm run bench -- NAME   (one of: ${available.join(", ")})`)
  process.exit(2)
}
await import(`./${name}.ts`)
