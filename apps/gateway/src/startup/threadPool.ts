/**
 * Sizes libuv's thread pool for the machine, before anything uses it: the
 * pool starts its threads on first use and reads `UV_THREADPOOL_SIZE` then,
 * so `main.ts` imports this module first. An operator's own
 * `UV_THREADPOOL_SIZE` is left as it is.
 *
 * Every answer is signed in the pool (`signOffLoop`), and every request's
 * signature checked there (`verifyOffLoop`), so its size is how many cores
 * the RSA work may take beside the event loop: every core but the
 * loop's. At least 2, so that a file operation (SQLite's WAL sync, say)
 * never waits behind a single busy signing thread. Node's default is 4
 * whatever the machine. One event loop feeds signing only about 0.6 of a
 * core (it spends about 0.37 ms on a create, a signature 0.21 ms), so beyond
 * that the extra threads only drain a burst of answers sooner; on the
 * 2-core benchmark machine 1, 2 and 4 threads measured alike (README,
 * "Operating the service").
 */
import { availableParallelism } from "node:os"

/** The pool's size on a machine of `cores` cores: every core but the event loop's, and at least 2. */
export const threadPoolSizeFor = (cores: number): number => Math.max(2, cores - 1)

if (process.env.UV_THREADPOOL_SIZE === undefined)
  process.env.UV_THREADPOOL_SIZE = String(threadPoolSizeFor(availableParallelism()))
