/**
 * The command line of the newcomer's tools: positional words and `--name
 * value` options (or `--flag` alone), nothing cleverer. Exit codes: 1 when
 * the tool or the service refuses what was asked, 2 when it could not be
 * done (a mistyped command, a missing key, no gateway listening).
 */
import { ConfigError } from "../config.ts"

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

/** Splits `argv` by the options each tool knows: those that take a value, and flags. */
export const parseArgs = (
  argv: ReadonlyArray<string>,
  known: { readonly options: ReadonlyArray<string>; readonly flags: ReadonlyArray<string> },
): Parsed => {
  const positional: Array<string> = []
  const options: Record<string, string> = {}
  const flags = new Set<string>()
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? ""
    if (!word.startsWith("--") || word === "--") {
      positional.push(word)
      continue
    }
    const [name = "", inline] = word.slice(2).split(/=(.*)/s)
    if (known.flags.includes(name)) flags.add(name)
    else if (known.options.includes(name)) {
      const value = inline ?? argv[++i]
      if (value === undefined) throw new UsageError(`--${name} needs a value`)
      options[name] = value
    } else throw new UsageError(`unknown option --${name}`)
  }
  return { positional, options, flags }
}

/** Runs a tool's main: prints a CliError's sentence (or an unexpected failure) and sets the exit code. */
export const runTool = async (tool: string, usage: string, main: () => Promise<void> | void): Promise<void> => {
  try {
    await main()
  } catch (error) {
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
