/** Runs a command to its end, its output shown as it comes; a failure throws with the command's name. */
import { spawnSync } from "node:child_process"

export interface RunOptions {
  readonly cwd: string
  readonly env?: NodeJS.ProcessEnv
}

export const run = (command: string, args: ReadonlyArray<string>, options: RunOptions): void => {
  console.log(`$ ${[command, ...args].join(" ")}   (in ${options.cwd})`)
  const result = spawnSync(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: "inherit" })
  if (result.error !== undefined) throw result.error
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal}`)
}
