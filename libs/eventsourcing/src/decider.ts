import type { Rejection } from "@mizan/kernel"
import type { Result } from "effect"

/**
 * An event-sourced state machine (Emmett's and Chassaing's decider):
 * `decide` is pure and total, and answers events or a typed rejection;
 * `evolve` folds one event into the state. Time arrives on the command.
 */
export interface Decider<Command, Event, State, Error = Rejection> {
  readonly initialState: State
  readonly decide: (command: Command, state: State) => Result.Result<ReadonlyArray<Event>, Error>
  readonly evolve: (state: State, event: Event) => State
}

/** Folds events into a state, from the decider's initial state or a given one. */
export const fold = <Event, State>(
  decider: Pick<Decider<never, Event, State, unknown>, "evolve" | "initialState">,
  events: Iterable<Event>,
  from: State = decider.initialState,
): State => {
  let state = from
  for (const event of events) state = decider.evolve(state, event)
  return state
}
