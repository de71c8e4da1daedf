/**
 * `npm run api-doc`: writes the generated sections of docs/api.md from the
 * code (`src/apiDoc/sections.ts`). Run it after changing an operation, a
 * code, the retry schedule or a sandbox helper; the gateway's tests fail
 * until the page says what the code does.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { type CommandLineError, readCommandLine } from "@mizan/command-line"
import { withSections } from "../apiDoc/markdown.ts"
import { apiDocSections } from "../apiDoc/sections.ts"

const usage = `Usage:
  npm run api-doc
      Writes the generated sections of docs/api.md (operations, codes, retry schedule, sandbox helpers) from the code.`

/** The command line, read like every tool's: a --help, or a word it does not take, must not rewrite the page. */
const readLine = () => {
  try {
    return readCommandLine("api-doc", process.argv.slice(2), {})
  } catch (error) {
    console.error((error as CommandLineError).message)
    process.exit(2)
  }
}

const line = readLine()
if (line.help) {
  console.log(usage)
  process.exit(0)
}
if (line.positionals.length > 0) {
  console.error("api-doc: takes no arguments; --help for usage")
  process.exit(2)
}

const page = fileURLToPath(new URL("../../../../docs/api.md", import.meta.url))
writeFileSync(page, withSections(readFileSync(page, "utf8"), apiDocSections()))
console.log(`wrote ${page}`)
