/** Runs the command line in-process, capturing what it writes; relative paths start from the test's directory. */
import { type CliRun, runCliToText } from "../../src/index.ts"

export type { CliRun }

export const cli = (
  argv: ReadonlyArray<string>,
  options: { readonly cwd?: string; readonly env?: Readonly<Record<string, string>> } = {},
): Promise<CliRun> => runCliToText(argv, { cwd: options.cwd ?? process.cwd(), env: options.env ?? {} })
