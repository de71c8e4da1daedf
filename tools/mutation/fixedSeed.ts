/**
 * Setup file of the mutation runs only (see vitest.config.ts): one seed for
 * every property. `@fast-check/vitest` writes the seed into each property's
 * test name; Stryker runs each mutant against the tests that covered it,
 * found by name, so a seed drawn afresh per run would rename every property
 * and leave it out of every mutant run. A fixed seed keeps the names, and
 * makes a survivor reproducible.
 */
import fc from "fast-check"

/** Any fixed number does; this one is the date the mutation runs began. */
export const mutationSeed = 20_260_101

fc.configureGlobal({ seed: mutationSeed })
