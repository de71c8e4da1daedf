import type { Fils } from "@mizan/kernel"
import type { MemberAccountOpened } from "./events.ts"

export type OpenAccount = Omit<MemberAccountOpened, "_tag" | "at"> & {
  readonly status: "OPEN"
  readonly balanceFils: Fils
  /** Credited amounts by reference: a reference is booked once. */
  readonly credits: ReadonlyMap<string, Fils>
}

export type State = { readonly status: "ABSENT" } | OpenAccount

export const initialState: State = { status: "ABSENT" }
