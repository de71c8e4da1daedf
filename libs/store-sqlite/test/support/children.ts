/**
 * Child processes for the store's cross-process tests (durability.spec.ts):
 * a TypeScript file run by the Node 24 that runs vitest (it runs `.ts`
 * directly), its stdout read line by line.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process"
import { createInterface } from "node:readline"
import type { Readable } from "node:stream"
import { Effect, type Scope } from "effect"

/** Starts `script` with `args`, stdin closed, stdout and stderr piped. */
export const spawnScript = (script: URL, args: ReadonlyArray<string>): ChildProcessByStdio<null, Readable, Readable> =>
  spawn(process.execPath, [script.pathname, ...args], { stdio: ["ignore", "pipe", "pipe"] })

export interface RunningScript {
  /** Completes once the child has printed `line`; fails if it exits first, with what it wrote to stderr. */
  readonly printed: (line: string) => Effect.Effect<void, Error>
}

/** `spawnScript` in the caller's scope: the child is SIGKILLed when the scope closes. */
export const scopedScript = (
  script: URL,
  args: ReadonlyArray<string>,
): Effect.Effect<RunningScript, never, Scope.Scope> =>
  Effect.map(
    Effect.acquireRelease(
      Effect.sync(() => spawnScript(script, args)),
      (child) => Effect.sync(() => child.kill("SIGKILL")),
    ),
    (child) => {
      const lines: Array<string> = []
      let stderr = ""
      let exited = false
      const listeners = new Set<() => void>()
      const tell = () => {
        for (const listener of listeners) listener()
      }
      child.stderr.on("data", (chunk) => {
        stderr += chunk
      })
      createInterface({ input: child.stdout }).on("line", (line) => {
        lines.push(line)
        tell()
      })
      child.on("exit", () => {
        exited = true
        tell()
      })
      return {
        printed: (line) =>
          Effect.callback<void, Error>((resume) => {
            const check = () => {
              if (lines.includes(line)) resume(Effect.void)
              else if (exited)
                resume(Effect.fail(new Error(`${script.pathname} exited without printing ${line}: ${stderr}`)))
              else return false
              listeners.delete(check)
              return true
            }
            if (check()) return
            listeners.add(check)
            return Effect.sync(() => listeners.delete(check))
          }),
      }
    },
  )
