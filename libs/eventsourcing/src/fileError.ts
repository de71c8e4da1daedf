/**
 * Why a file did not read or write, in an operator's words: the stores' master
 * key file, the gateway's key files and `send @file`, the notifier's key, the
 * audit's key, import and export files all say it alike. Here, not in a tool's
 * lib, because a published store lib words its own files as the tools do.
 */

/** The file-system failures an operator meets most, as they read after "cannot read PATH: ". */
const readReasons: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "is a folder, not a file",
}

/** The same after "cannot write PATH: ": a write makes a missing file, so ENOENT means its folder is missing. */
const writeReasons: Readonly<Record<string, string>> = { ...readReasons, ENOENT: "its folder does not exist" }

/**
 * The reason in `reasons` for the error's code, else Node's own words without
 * its code and the call and path it appends ("ENOTDIR: not a directory, open
 * 'a/b.json'"): the caller's message names the file already, and the setting
 * that names it.
 */
const reasonIn =
  (reasons: Readonly<Record<string, string>>) =>
  (error: unknown): string => {
    if (!(error instanceof Error)) return String(error)
    const { code, syscall } = error as NodeJS.ErrnoException
    if (code === undefined) return error.message
    const known = reasons[code]
    if (known !== undefined) return known
    const withoutCode = error.message.startsWith(`${code}: `) ? error.message.slice(code.length + 2) : error.message
    const callAt = syscall === undefined ? -1 : withoutCode.lastIndexOf(`, ${syscall}`)
    return callAt === -1 ? withoutCode : withoutCode.slice(0, callAt)
  }

/**
 * Why `error` kept a file from reading: "no such file", "permission denied",
 * "is a folder, not a file", else Node's own words without its code, call and
 * path; an error not the file system's (a key that does not parse) keeps its message.
 */
export const fileErrorReason: (error: unknown) => string = reasonIn(readReasons)

/**
 * Why `error` kept a file from being written: "its folder does not exist",
 * "permission denied", "is a folder, not a file", else as `fileErrorReason`.
 */
export const fileWriteErrorReason: (error: unknown) => string = reasonIn(writeReasons)
