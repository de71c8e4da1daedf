import { Result } from "effect"
import type { Decider } from "../decider.ts"

/** One command of a run: the state it met, what was decided, and the state it left. */
export interface Step<Command, Event, State, Error> {
  readonly command: Command
  readonly before: State
  readonly decided: Result.Result<ReadonlyArray<Event>, Error>
  readonly after: State
}

/**
 * Decides each command on the state the previous ones left, as the command
 * handler does, and records every step: what property tests over random
 * command sequences check their laws on.
 */
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

/** The events a step decided (none when it was refused). */
export const eventsOf = <Event>(step: { readonly decided: Result.Result<ReadonlyArray<Event>, unknown> }) =>
  Result.isSuccess(step.decided) ? step.decided.success : []

/** A step the decider accepted: the events it decided between the two states. */
export interface AcceptedStep<Command, Event, State> {
  readonly command: Command
  readonly before: State
  readonly events: ReadonlyArray<Event>
  readonly after: State
}

/** The accepted steps of a run; a refused command changed nothing, so it is left out. */
export const acceptedSteps = <Command, Event, State, Error>(
  steps: ReadonlyArray<Step<Command, Event, State, Error>>,
): ReadonlyArray<AcceptedStep<Command, Event, State>> =>
  steps.flatMap((step) =>
    Result.isSuccess(step.decided)
      ? [{ command: step.command, before: step.before, events: step.decided.success, after: step.after }]
      : [],
  )
