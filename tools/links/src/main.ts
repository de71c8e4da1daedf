/** `npm run links`: prints every broken link or path and exits 1 when there is one. */
import { fileURLToPath } from "node:url"
import { linkProblems } from "./check.ts"

const problems = linkProblems(fileURLToPath(new URL("../../..", import.meta.url)))
if (problems.length > 0) {
  console.error(`Links: ${problems.length} broken; every link and path must name a file of the repository`)
  for (const problem of problems) console.error(`  ${problem}`)
  process.exit(1)
}
console.log("Links: 0 broken")
