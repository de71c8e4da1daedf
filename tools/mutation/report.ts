/**
 * Reading Stryker's JSON report (mutation-testing-report-schema): the score
 * and the survivors, one line each.
 */

export type MutantStatus =
  | "Killed"
  | "Survived"
  | "NoCoverage"
  | "Timeout"
  | "CompileError"
  | "RuntimeError"
  | "Ignored"
  | "Pending"

export interface Mutant {
  readonly mutatorName: string
  readonly replacement?: string
  readonly status: MutantStatus
  readonly location: { readonly start: { readonly line: number; readonly column: number } }
}

export interface Report {
  readonly files: Readonly<Record<string, { readonly mutants: ReadonlyArray<Mutant> }>>
}

const allMutants = (report: Report): ReadonlyArray<readonly [string, Mutant]> =>
  Object.entries(report.files).flatMap(([file, { mutants }]) => mutants.map((m) => [file, m] as const))

const detected: ReadonlySet<MutantStatus> = new Set(["Killed", "Timeout"])
const undetected: ReadonlySet<MutantStatus> = new Set(["Survived", "NoCoverage"])

/**
 * Stryker's mutation score: detected (killed or timed out) over detected plus
 * undetected (survived or not covered), in percent. Mutants that did not
 * compile or run, and ignored ones, count on neither side. 100 when nothing
 * was mutated.
 */
export const mutationScore = (report: Report): number => {
  let caught = 0
  let missed = 0
  for (const [, mutant] of allMutants(report)) {
    if (detected.has(mutant.status)) caught++
    if (undetected.has(mutant.status)) missed++
  }
  return caught + missed === 0 ? 100 : (100 * caught) / (caught + missed)
}

export interface Survivor {
  readonly file: string
  readonly line: number
  readonly description: string
}

/** The mutants no test caught, by file and line: `Survived` or `NoCoverage`, and what each changed. */
export const survivors = (report: Report): ReadonlyArray<Survivor> =>
  allMutants(report)
    .filter(([, mutant]) => undetected.has(mutant.status))
    .map(([file, mutant]) => ({
      file,
      line: mutant.location.start.line,
      description: `${mutant.mutatorName}${mutant.status === "NoCoverage" ? " (no test runs it)" : ""}: ${oneLine(mutant.replacement ?? "")}`,
    }))
    .sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1))

const oneLine = (text: string): string => {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length > 100 ? `${flat.slice(0, 97)}...` : flat
}
