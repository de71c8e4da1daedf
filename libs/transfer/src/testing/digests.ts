import type { Sha256Hex } from "@mizan/kernel"

/** A well-formed SHA-256 hex digest standing for the n-th name, IBAN or identity (the kit never needs clear values). */
export const digestOf = (n: number): Sha256Hex => n.toString(16).padStart(64, "0") as Sha256Hex
