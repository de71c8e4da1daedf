/**
 * The merchant's display name, which its pay pages show payers where they
 * would otherwise read its Partner-Id: `--name`, or asked for when a person
 * runs the tool at a terminal. A script (no terminal) is never kept
 * waiting for an answer: it gets no name unless it passes `--name`.
 */
import { createInterface } from "node:readline/promises"

export interface Terminal {
  readonly input: NodeJS.ReadableStream & { readonly isTTY?: boolean }
  readonly output: NodeJS.WritableStream
}

/** The name asked at the terminal, blanks trimmed; undefined when the answer is empty or the input ends first. */
export const askDisplayName = async (partnerId: string, terminal: Terminal): Promise<string | undefined> => {
  const lines = createInterface({ input: terminal.input, output: terminal.output, terminal: false })
  const ended = new Promise<string>((resolve) => lines.once("close", () => resolve("")))
  try {
    const answer = await Promise.race([
      lines.question(`Display name of ${partnerId}, shown to payers on its pay page (Enter for none): `),
      ended,
    ])
    return answer.trim() === "" ? undefined : answer.trim()
  } finally {
    lines.close()
  }
}

/** `--name` when given; else, at a terminal, the name asked for; else none. */
export const displayNameOf = (
  partnerId: string,
  option: string | undefined,
  terminal: Terminal,
): Promise<string | undefined> => {
  if (option !== undefined) return Promise.resolve(option.trim() === "" ? undefined : option.trim())
  return terminal.input.isTTY === true ? askDisplayName(partnerId, terminal) : Promise.resolve(undefined)
}
