/**
 * `npm run links`: prints every broken link or path, every link of a
 * published package's README that its tarball lacks, and every package
 * without its README or its row in the root README, and exits 1 when there
 * is one.
 */
import { fileURLToPath } from "node:url"
import { linkProblems } from "./check.ts"
import { packageProblems } from "./packages.ts"
import { packedLinkProblems } from "./packed.ts"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const problems = [...linkProblems(root), ...packedLinkProblems(root), ...packageProblems(root)]
if (problems.length > 0) {
  console.error(
    `Links: ${problems.length} broken; every link and path must name a file of the repository, every package needs its README`,
  )
  for (const problem of problems) console.error(`  ${problem}`)
  process.exit(1)
}
console.log("Links: 0 broken")
