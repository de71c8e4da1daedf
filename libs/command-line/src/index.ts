/**
 * How every Mizan tool reads its command line (the gateway's `send`,
 * `merchant` and `api-doc`, the audit, the notifier's operator commands,
 * the history generator, `npm run postgres`, the benchmarks), so that they
 * all answer alike:
 * - `--help` (or `-h`) anywhere: the tool prints its usage and exits 0;
 * - an unknown option, or an option without its value: one line
 *   (`mizan-audit: unknown option --x; --help for usage`) and exit 2;
 * - a negative number after an option that takes a value is its value
 *   (`--position -1`), for the tool to say what it takes;
 * - a file that does not read: its reason in plain words (`fileErrorReason`),
 *   and a file a setting names (a key file) refused in one wording
 *   (`readSettingFile`).
 * Node's own `parseArgs` does the reading; only its messages are put in the
 * tool's words.
 */
import { readFileSync } from "node:fs"
import { type ParseArgsOptionsConfig, parseArgs } from "node:util"
import { fileErrorReason } from "@mizan/eventsourcing"

/** The exit status of a command line the tool cannot read. */
export const exitCodeUsage = 2

/** A command line the tool cannot read; `message` is the one line to print. */
export class CommandLineError extends Error {
  override readonly name = "CommandLineError"
  readonly exitCode = exitCodeUsage
}

const helpWords = new Set(["--help", "-h"])

/** Whether the words ask for the usage: `--help` or `-h` before any `--`. */
export const asksForHelp = (argv: ReadonlyArray<string>): boolean => {
  const end = argv.indexOf("--")
  return (end === -1 ? argv : argv.slice(0, end)).some((word) => helpWords.has(word))
}

const quoted = (message: string): string | undefined => /'(-[^' ]+)/.exec(message)?.[1]

/** Node's parse error in the tool's one line. */
const lineFor = (tool: string, error: unknown): string => {
  const code = (error as { code?: string }).code
  const message = error instanceof Error ? error.message : String(error)
  const option = quoted(message)
  const what =
    code === "ERR_PARSE_ARGS_UNKNOWN_OPTION"
      ? `unknown option ${option ?? message}`
      : code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option !== undefined
        ? `${option} needs a value`
        : code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL"
          ? "takes no further arguments"
          : message
  return `${tool}: ${what}; --help for usage`
}

/** A word that reads as a negative number: no option's name starts with a digit, so it is never an option. */
const negativeNumber = /^-\.?[0-9]/

/**
 * `argv` with each negative number that follows a long option taking a
 * value joined to it (`--position -1` as `--position=-1`). parseArgs takes
 * any word that starts with a dash there for an option the value was
 * forgotten before, and the tool said the option needs a value, not what
 * it got and what it takes.
 */
const negativeValuesJoined = (argv: ReadonlyArray<string>, options: ParseArgsOptionsConfig): Array<string> => {
  const words: Array<string> = []
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index] as string
    if (word === "--") return [...words, ...argv.slice(index)]
    const value = argv[index + 1]
    const name = word.slice(2)
    const takesValue = word.startsWith("--") && Object.hasOwn(options, name) && options[name]?.type === "string"
    if (takesValue && value !== undefined && negativeNumber.test(value)) {
      words.push(`${word}=${value}`)
      index++
    } else words.push(word)
  }
  return words
}

export type CommandLine<Options extends ParseArgsOptionsConfig> =
  | { readonly help: true }
  | ({ readonly help: false } & ReturnType<
      typeof parseArgs<{ options: Options; allowPositionals: true; strict: true }>
    >)

/**
 * Reads `argv` (without node and the script) by the options the tool knows.
 * Throws a CommandLineError with the line to print for what it cannot read.
 */
export const readCommandLine = <const Options extends ParseArgsOptionsConfig>(
  tool: string,
  argv: ReadonlyArray<string>,
  options: Options,
): CommandLine<Options> => {
  if (asksForHelp(argv)) return { help: true }
  try {
    return {
      help: false,
      ...parseArgs({ args: negativeValuesJoined(argv, options), options, allowPositionals: true, strict: true }),
    }
  } catch (error) {
    throw new CommandLineError(lineFor(tool, error))
  }
}

// Worded in @mizan/eventsourcing, where the published store libs reach it too.
export { fileErrorReason, fileWriteErrorReason } from "@mizan/eventsourcing"

/** A file a setting names that does not read, or does not hold what it should; `message` is the one line to print. */
export class SettingFileError extends Error {
  override readonly name = "SettingFileError"
}

/** A file as a setting names it: what it holds, the path, and the setting's name. */
export interface SettingFile {
  /** What the file holds, as the refusal names it: "the service's private key". */
  readonly what: string
  readonly path: string
  /** The setting that names the file: "serviceKeys.privateKeyFile", "MIZAN_SERVICE_PRIVATE_KEY_FILE". */
  readonly settingName: string
}

/**
 * The text of `file` made into a value by `parse`. A file that does not
 * read, or whose text `parse` throws on, is refused in one line naming it,
 * its setting and why: "the service's private key data/service-private.pem
 * (MIZAN_SERVICE_PRIVATE_KEY_FILE) does not read: no such file", the
 * reason in the file system's plain words or as `parse`'s error says it.
 */
export const readSettingFile = <A>(file: SettingFile, parse: (text: string) => A): A => {
  try {
    return parse(readFileSync(file.path, "utf8"))
  } catch (error) {
    throw new SettingFileError(
      `${file.what} ${file.path} (${file.settingName}) does not read: ${fileErrorReason(error)}`,
      { cause: error },
    )
  }
}
