/** A gateway per test suite, without each file repeating its beforeAll and afterAll. */
import { afterAll, beforeAll } from "vitest"
import { startGateway, type TestGateway } from "./harness.ts"

/**
 * A gateway for the enclosing suite (a test file, or a describe block):
 * `start` runs before the suite's tests and the gateway closes after them.
 * The answer stands in for the started gateway, so tests read
 * `gateway.merchant()` as before; using it outside a test throws.
 */
export const suiteGateway = (start: () => Promise<TestGateway> = () => startGateway()): TestGateway => {
  let started: TestGateway | undefined
  beforeAll(async () => {
    started = await start()
  })
  afterAll(() => started?.close())
  const current = () => {
    if (started === undefined) throw new Error("the suite's gateway was used before its beforeAll started it")
    return started
  }
  // The gateway only exists once beforeAll has run, after the tests were collected: resolve each property on use.
  return new Proxy({} as TestGateway, { get: (_target, property) => Reflect.get(current(), property) })
}
