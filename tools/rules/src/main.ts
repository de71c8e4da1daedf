/**
 * `npm run rules`: prints every source file's offence against the house rules
 * (CONTRIBUTING.md, "How the code reads") and exits 1 when there is one.
 * `npm run rules -- --write` writes each ratchet's list from the code as it is:
 * for when files move, the diff then showing moves and removals only.
 */
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { findingsOf, houseRules, ratchetCounts, ruleProblems } from "./check.ts"
import { ratchetPath, ratchetsDir, ratchetText } from "./ratchet.ts"
import { readSources } from "./sources.ts"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const files = readSources(root)

if (process.argv.includes("--write")) {
  for (const rule of houseRules.filter((r) => r.ratchet))
    writeFileSync(ratchetPath(ratchetsDir, rule.id), ratchetText(rule.says, findingsOf(rule, files)))
}

const problems = ruleProblems(files, ratchetsDir)
const summary = `ratchets: ${ratchetCounts(ratchetsDir).join(", ")}`
if (problems.length > 0) {
  console.error(`House rules: ${problems.length} broken (${summary})`)
  for (const problem of problems) console.error(`  ${problem}`)
  process.exit(1)
}
console.log(`House rules: 0 broken in ${files.length} files (${summary})`)
