/**
 * A ratchet: the committed list of a rule's offenders today, by file and name,
 * one a line (`ratchets/<rule>.txt`). The check refuses an offender the list
 * does not hold, even when another was fixed in the same change, and a line
 * of the list that no longer offends: the list only shrinks, and says so.
 * A name met twice in a file (two casts in one function) is listed twice.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { type Finding, keyOf } from "./rule.ts"

export const ratchetsDir = join(import.meta.dirname, "..", "ratchets")

export const ratchetPath = (dir: string, ruleId: string): string => join(dir, `${ruleId}.txt`)

/** A ratchet file's offenders: its lines but the empty ones and `#` comments. */
export const parseRatchet = (text: string): Array<string> =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))

/** A rule's listed offenders; none when it has no list yet. */
export const readRatchet = (dir: string, ruleId: string): Array<string> => {
  const path = ratchetPath(dir, ruleId)
  return existsSync(path) ? parseRatchet(readFileSync(path, "utf8")) : []
}

export interface RatchetOutcome {
  /** Offenders the list does not hold: refused. */
  readonly added: ReadonlyArray<Finding>
  /** Lines of the list that no longer offend: to remove from the list. */
  readonly fixed: ReadonlyArray<string>
}

const counts = (keys: ReadonlyArray<string>): Map<string, number> => {
  const counted = new Map<string, number>()
  for (const key of keys) counted.set(key, (counted.get(key) ?? 0) + 1)
  return counted
}

/** What `findings` add to the `listed` offenders, and which listed ones they no longer hold. */
export const compareWithRatchet = (findings: ReadonlyArray<Finding>, listed: ReadonlyArray<string>): RatchetOutcome => {
  const room = counts(listed)
  const added: Array<Finding> = []
  for (const finding of findings) {
    const left = room.get(keyOf(finding)) ?? 0
    if (left === 0) added.push(finding)
    else room.set(keyOf(finding), left - 1)
  }
  const fixed = [...room].flatMap(([key, left]) => Array.from({ length: left }, () => key))
  return { added, fixed }
}

/** A ratchet file's text for `findings`: a header, then the offenders sorted. */
export const ratchetText = (says: string, findings: ReadonlyArray<Finding>): string =>
  `# Offenders of "${says}" left from before the rule was checked.\n# The list only shrinks: remove a line when its offender is fixed (tools/rules/README.md).\n${findings
    .map(keyOf)
    .sort()
    .join("\n")}\n`
