/**
 * `npm run mutation [-- lib ...]`: Stryker over the kernel and the domain
 * libs, one lib at a time (a run takes minutes on a 2-core machine), each
 * with its own tests. Prints `mutation score: <lib> NN.N%` and the mutants
 * that survived. Not part of `npm test`; see README.md here for how to read
 * the result and why each remaining survivor survives.
 *
 * Stryker runs from the lib's folder (its sandbox copies that folder), with
 * tools/mutation/vitest.config.ts: the lib's tests, every property on one
 * fixed seed. No type checker: TypeScript 7 has no API that Stryker's checker
 * plugin can drive, and Vitest strips the types itself, so a mutant that does
 * not type-check still runs (and is almost always killed).
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { mutationScore, type Report, survivors } from "./report.ts"

const root = join(import.meta.dirname, "..", "..")
const workDir = join(import.meta.dirname, ".work")

/** The libs whose rules the mutation runs check: the kernel and every domain lib. */
export const mutatedLibs = ["kernel", "acquiring", "refund", "transfer", "card-transfer", "notification"] as const

/** Two workers: the machines this runs on have two cores. */
const concurrency = 2

const strykerConfig = (lib: string) => ({
  testRunner: "vitest",
  vitest: { configFile: join(import.meta.dirname, "vitest.config.ts") },
  // A lib's testing entry (its reference models and arbitraries) is test code: the oracle, not the rules.
  mutate: ["src/**/*.ts", "!src/testing/**"],
  // Left out of the sandbox, so Stryker does not rewrite it with the TypeScript API (which TypeScript 7
  // lacks); Vitest then reads the lib's own tsconfig.json above the sandbox.
  ignorePatterns: ["/tsconfig.json"],
  coverageAnalysis: "perTest",
  concurrency,
  reporters: ["json", "progress-append-only"],
  jsonReporter: { fileName: join(workDir, `${lib}.json`) },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
})

const runLib = (lib: string): Report => {
  const configPath = join(workDir, `${lib}.stryker.json`)
  writeFileSync(configPath, JSON.stringify(strykerConfig(lib), null, 2))
  const libDir = join(root, "libs", lib)
  const run = spawnSync("stryker", ["run", configPath], { cwd: libDir, stdio: "inherit" })
  if (run.status !== 0) throw new Error(`stryker failed on libs/${lib} (exit ${run.status})`)
  return JSON.parse(readFileSync(join(workDir, `${lib}.json`), "utf8"))
}

if (import.meta.main) {
  const asked = process.argv.slice(2)
  const unknown = asked.filter((lib) => !(mutatedLibs as ReadonlyArray<string>).includes(lib))
  if (unknown.length > 0) {
    console.error(`not a mutated lib: ${unknown.join(", ")} (choose from ${mutatedLibs.join(", ")})`)
    process.exit(2)
  }
  mkdirSync(workDir, { recursive: true })
  const scores: Array<string> = []
  for (const lib of asked.length > 0 ? asked : mutatedLibs) {
    const report = runLib(lib)
    const libDir = join(root, "libs", lib)
    const lines = survivors(report).map((s) => `  ${relative(root, join(libDir, s.file))}:${s.line} ${s.description}`)
    const score = `mutation score: ${lib} ${mutationScore(report).toFixed(1)}%`
    console.log(`\n${score}\n${lines.length === 0 ? "  no survivors" : lines.join("\n")}`)
    scores.push(score)
  }
  console.log(`\n${scores.join("\n")}`)
}
