/** Runs the command line in-process, capturing what it writes. */
import { Writable } from "node:stream"
import { runCli } from "../../src/index.ts"

export interface CliRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const capture = () => {
  const chunks: Array<string> = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk))
      done()
    },
  })
  return { stream, text: () => chunks.join("") }
}

export const cli = async (
  argv: ReadonlyArray<string>,
  options: { readonly cwd?: string; readonly env?: Readonly<Record<string, string>> } = {},
): Promise<CliRun> => {
  const stdout = capture()
  const stderr = capture()
  const code = await runCli(argv, {
    stdout: stdout.stream,
    stderr: stderr.stream,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
  })
  return { code, stdout: stdout.text(), stderr: stderr.text() }
}
