/**
 * The command line of the newcomer's tools: positional words and `--name
 * value` options (or `--flag` alone), read as every Mizan tool reads its
 * line (`@mizan/command-line`: `--help`, one line for an unknown option). Exit codes: 1 when
 * the tool or the service refuses what was asked, 2 when it could not be
 * done (a mistyped command, a missing key, no gateway listening).
 */
import { asksForHelp, CommandLineError, readCommandLine } from "@mizan/command-line"
import { ConfigError } from "../config/config.ts"

/** What the tools report to a person: a sentence, never a stack trace. */
export class CliError extends Error {
  override readonly name: string = "CliError"
  readonly exitCode: number
  constructor(message: string, exitCode = 2) {
    super(message)
    this.exitCode = exitCode
  }
}

/** A mistyped command line: the sentence, then the tool's usage. */
export class UsageError extends CliError {
  override readonly name = "UsageError"
}

export interface Parsed {
  readonly positional: ReadonlyArray<string>
  readonly options: Readonly<Record<string, string>>
  readonly flags: ReadonlySet<string>
}

/** Splits `argv` by the options each tool knows: those that take a value, and flags (`--help` is runTool's). */
export const parseArgs = (
  tool: string,
  argv: ReadonlyArray<string>,
  known: { readonly options: ReadonlyArray<string>; readonly flags: ReadonlyArray<string> },
): Parsed => {
  const line = readCommandLine(tool, argv, {
    ...Object.fromEntries(known.options.map((name) => [name, { type: "string" as const }])),
    ...Object.fromEntries(known.flags.map((name) => [name, { type: "boolean" as const }])),
  })
  if (line.help) return { positional: [], options: {}, flags: new Set() }
  const values = Object.entries(line.values)
  return {
    positional: line.positionals,
    options: Object.fromEntries(values.filter(([, value]) => typeof value === "string")) as Record<string, string>,
    flags: new Set(values.filter(([, value]) => value === true).map(([name]) => name)),
  }
}

/** Runs a tool's main: prints a CliError's sentence (or an unexpected failure) and sets the exit code. */
export const runTool = async (tool: string, usage: string, main: () => Promise<void> | void): Promise<void> => {
  if (asksForHelp(process.argv.slice(2))) {
    console.log(usage)
    return
  }
  try {
    await main()
  } catch (error) {
    if (error instanceof CommandLineError) {
      console.error(error.message)
      process.exitCode = error.exitCode
      return
    }
    if (error instanceof CliError) {
      console.error(`${tool}: ${error.message}`)
      if (error instanceof UsageError) console.error(`\n${usage}`)
      process.exitCode = error.exitCode
      return
    }
    // A setting the tool read (PORT, say) that makes no sense: said in one line, as a configuration file's error is.
    if (error instanceof ConfigError) {
      console.error(`${tool}: ${error.message}`)
      process.exitCode = 2
      return
    }
    console.error(`${tool}: unexpected failure:`, error)
    process.exitCode = 2
  }
}
