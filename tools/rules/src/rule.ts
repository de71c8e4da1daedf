/** What a house rule is to the check: a name, the sentence CONTRIBUTING says, and the offenders it finds in a file. */
import type { ParsedFile } from "./syntax.ts"

export interface Finding {
  /** The file's path from the repository's root. */
  readonly file: string
  /** The declaration the offence is in or is (`makeSealer.seal`), stable when lines move. */
  readonly name: string
  /** Where it is now, for the reader: not part of a ratchet's list. */
  readonly line: number
  /** What is wrong, in a few words (`93 lines`). */
  readonly detail: string
}

export interface Rule {
  /** The rule's name, also its ratchet's file name (`ratchets/<id>.txt`). */
  readonly id: string
  /** The rule as CONTRIBUTING says it, shown with each offender. */
  readonly says: string
  /** A ratchet lists today's offenders and refuses any other; a rule without one refuses every offender. */
  readonly ratchet: boolean
  readonly find: (file: ParsedFile) => Array<Finding>
}

/** An offender's line in a ratchet's list: file and name, no line number. */
export const keyOf = (finding: Finding): string => `${finding.file}: ${finding.name}`
