/**
 * The command line run in this process, what it writes kept as text: for a
 * script or a test that reads an audit's answer without starting a process
 * (`runCli` writes to the streams it is given).
 */
import { Writable } from "node:stream"
import { type ExitCode, runCli } from "./cli.ts"

export interface CliRun {
  readonly code: ExitCode
  readonly stdout: string
  readonly stderr: string
}

/** A stream that keeps what is written to it. */
const textSink = () => {
  const chunks: Array<string> = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk))
      done()
    },
  })
  return { stream, text: () => chunks.join("") }
}

/** `runCli(argv)` started in `cwd` with `env` (none by default: only what the arguments say). */
export const runCliToText = async (
  argv: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env?: Readonly<Record<string, string | undefined>> },
): Promise<CliRun> => {
  const stdout = textSink()
  const stderr = textSink()
  const code = await runCli(argv, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: options.env ?? {},
    cwd: options.cwd,
  })
  return { code, stdout: stdout.text(), stderr: stderr.text() }
}
