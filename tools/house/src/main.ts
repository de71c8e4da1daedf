/** `npm run house`: the commit subjects after the rule's base and the docs' lengths and issue numbers; exits 1 on any problem. */
import { fileURLToPath } from "node:url"
import { commitCheck, subjectMaxChars } from "./commits.ts"
import { docsProblems } from "./docs.ts"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const commits = commitCheck(root)
const docs = docsProblems(root)

if (commits.skipped !== undefined) console.log(`House: ${commits.skipped}`)
if (commits.problems.length > 0) {
  console.error(
    `House: ${commits.problems.length} commit subject(s) refused: "area: what changed", at most ${subjectMaxChars} characters, the why in the body (git commit --amend, or git rebase -i to reword)`,
  )
  for (const problem of commits.problems) console.error(`  ${problem}`)
}
if (docs.length > 0) {
  console.error(`House: ${docs.length} doc problem(s)`)
  for (const problem of docs) console.error(`  ${problem}`)
}
if (commits.problems.length > 0 || docs.length > 0) process.exit(1)
console.log(`House: ${commits.checked} commit subject(s) and the docs in order`)
