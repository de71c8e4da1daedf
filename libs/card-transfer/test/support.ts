/** Test helpers: digests as the edge makes them, fixed times, and a command runner that records every step. */
import { createHash } from "node:crypto"
import type { Decider } from "@mizan/eventsourcing"
import { type Sha256Hex, type Timestamp, timestamp } from "@mizan/kernel"
import { Result } from "effect"

export const sha256 = (text: string): Sha256Hex => createHash("sha256").update(text, "utf8").digest("hex") as Sha256Hex

export const at = (iso: string): Timestamp => timestamp(Date.parse(iso))

export interface Step<Command, Event, State, Error> {
  readonly command: Command
  readonly before: State
  readonly decided: Result.Result<ReadonlyArray<Event>, Error>
  readonly after: State
}

/** Decides each command on the state the previous ones left, as the command handler does. */
export const runCommands = <Command, Event, State, Error>(
  decider: Decider<Command, Event, State, Error>,
  commands: ReadonlyArray<Command>,
): ReadonlyArray<Step<Command, Event, State, Error>> => {
  const steps: Array<Step<Command, Event, State, Error>> = []
  let state = decider.initialState
  for (const command of commands) {
    const decided = decider.decide(command, state)
    const after = Result.isSuccess(decided) ? decided.success.reduce(decider.evolve, state) : state
    steps.push({ command, before: state, decided, after })
    state = after
  }
  return steps
}
