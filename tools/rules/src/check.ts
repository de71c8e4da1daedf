/**
 * The house-rule check: every rule of `rules` over every source file, each
 * ratchet's offenders against its committed list. Answers one sentence per
 * problem, naming the file, the declaration, the line and the rule.
 */
import { compareWithRatchet, readRatchet } from "./ratchet.ts"
import { type Finding, keyOf, type Rule } from "./rule.ts"
import { doubleCast } from "./rules/doubleCast.ts"
import { effectFn } from "./rules/effectFn.ts"
import { functionLength } from "./rules/functionLength.ts"
import { undefinedSpread } from "./rules/undefinedSpread.ts"
import { unitLast } from "./rules/unitLast.ts"
import type { ParsedFile } from "./syntax.ts"

export const houseRules: ReadonlyArray<Rule> = [effectFn, functionLength, undefinedSpread, unitLast, doubleCast]

export const findingsOf = (rule: Rule, files: ReadonlyArray<ParsedFile>): Array<Finding> => files.flatMap(rule.find)

const refusal = (rule: Rule, finding: Finding, listed: boolean): string =>
  `${finding.file}:${finding.line}: ${finding.name} (${finding.detail}): ${rule.says}${listed ? "" : ` [${rule.id}]`}`

/** Every problem of `files` under `rules`, the ratchets' lists read from `ratchetsDir`. */
export const ruleProblems = (
  files: ReadonlyArray<ParsedFile>,
  ratchetsDir: string,
  rules: ReadonlyArray<Rule> = houseRules,
): Array<string> =>
  rules.flatMap((rule) => {
    const findings = findingsOf(rule, files)
    if (!rule.ratchet) return findings.map((finding) => refusal(rule, finding, false))
    const { added, fixed } = compareWithRatchet(findings, readRatchet(ratchetsDir, rule.id))
    return [
      ...added.map(
        (finding) => `${refusal(rule, finding, true)} [${rule.id}: new, not in tools/rules/ratchets/${rule.id}.txt]`,
      ),
      ...fixed.map(
        (key) => `${key}: no longer offends [${rule.id}]: remove its line from tools/rules/ratchets/${rule.id}.txt`,
      ),
    ]
  })

/** How many offenders each ratchet still lists, for the check's summary line. */
export const ratchetCounts = (ratchetsDir: string, rules: ReadonlyArray<Rule> = houseRules): Array<string> =>
  rules.filter((rule) => rule.ratchet).map((rule) => `${rule.id} ${readRatchet(ratchetsDir, rule.id).length}`)

export { keyOf }
