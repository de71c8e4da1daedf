/**
 * `npm run api-doc`: writes the generated sections of docs/api.md from the
 * code (`src/apiDoc/sections.ts`). Run it after changing an operation, a
 * code, the retry schedule or a sandbox helper; the gateway's tests fail
 * until the page says what the code does.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { withSections } from "../apiDoc/markdown.ts"
import { apiDocSections } from "../apiDoc/sections.ts"

const page = fileURLToPath(new URL("../../../../docs/api.md", import.meta.url))
writeFileSync(page, withSections(readFileSync(page, "utf8"), apiDocSections()))
console.log(`wrote ${page}`)
