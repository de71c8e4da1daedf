/**
 * Why a file did not read, in a tool's words: the gateway's key files and
 * `send @file`, the audit's key and import files all say it alike.
 */

/** The file-system failures an operator meets most, as they read after "cannot read PATH: ". */
const reasonOfCode: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "is a folder, not a file",
}

/**
 * Why `error` kept a file from reading: "no such file", "permission denied",
 * "is a folder, not a file", else Node's own words without its code and the
 * call and path it appends ("ENOENT: no such file or directory, open 'a.json'"):
 * the caller's message names the file already, and the setting that names it.
 */
export const fileErrorReason = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  const { code, syscall } = error as NodeJS.ErrnoException
  if (code === undefined) return error.message
  const known = reasonOfCode[code]
  if (known !== undefined) return known
  const withoutCode = error.message.startsWith(`${code}: `) ? error.message.slice(code.length + 2) : error.message
  const callAt = syscall === undefined ? -1 : withoutCode.lastIndexOf(`, ${syscall}`)
  return callAt === -1 ? withoutCode : withoutCode.slice(0, callAt)
}
