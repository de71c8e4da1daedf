/**
 * `npm run bench -- gatewaySteps`: what each step of the gateway's work for
 * a create costs the event loop, the steps of the third ceiling
 * of `src/gateway.ts` (`createSteps`, src/bareGatewayWork.ts) timed one by
 * one in this process over the same signed creates, beside a baseline in
 * the same run: the minimal bare server's own per-create JavaScript
 * (`JSON.parse` of the body, `JSON.stringify` of an answer of the same
 * shape). No socket, no SQLite, no signature: each step's share of the work
 * a create costs on the loop, for what a design of the step would move.
 *
 * - decode: the body parsed strictly (`parseJson`), the envelope and the
 *   operation's request decoded by the wire's Effect Schemas, the URL
 *   checked;
 * - decide: the order decided on the empty state, its events encoded by
 *   the aggregate's codec and sealed, the index event beside them, the
 *   state folded;
 * - rows: each event's stored JSON and chain hash, as the SQLite store
 *   computes them before it inserts;
 * - answer: the wire view, the pay token, the response schema's encoding
 *   and the JSON text.
 *
 * `BENCH_CREATES` (default 4,000 a run) changes the run.
 */
import { generateKeyPair, type PrivateKey, stringifyJson } from "@mizan/protocol"
import { createSteps, type DecidedCreate, type DecodedCreate, type EventRow } from "./bareGatewayWork.ts"
import { signedCreates } from "./gatewayLoad.ts"
import { comparisonOf, describeMachine, formatTable, measureTogether, type Workload } from "./harness.ts"

const createsPerRun = Number(process.env.BENCH_CREATES ?? 4_000)
const steps = createSteps(generateKeyPair().privateKey as PrivateKey)
const utf8 = new TextEncoder()

/** A run's creates as each step takes them: the earlier steps are run in its untimed setup. */
const bodies = () => signedCreates(createsPerRun).map((create) => utf8.encode(create.body))
const decodedAll = (): Array<DecodedCreate> =>
  bodies().map((body) => {
    const decoded = steps.decode(body)
    if (typeof decoded === "string") throw new Error(`gatewaySteps: a create was refused: ${decoded}`)
    return decoded
  })
const decidedAll = (): Array<DecidedCreate> =>
  decodedAll().map((decoded) => {
    const decided = steps.decide(decoded)
    if (typeof decided === "string") throw new Error(`gatewaySteps: a create was refused: ${decided}`)
    return decided
  })

let sink: unknown
const step = <Context>(name: string, setup: () => Context, run: (context: Context) => void): Workload<Context> => ({
  name: `${name}, a create each`,
  operationsPerRun: createsPerRun,
  setup,
  run,
})

const baseline = step(
  "baseline: JSON.parse of the body, JSON.stringify of an answer",
  () => ({ bodies: bodies(), answer: steps.answer(decidedAll()[0]!.order) }),
  ({ bodies, answer }) => {
    for (const body of bodies) sink = [JSON.parse(Buffer.from(body).toString("utf8")), JSON.stringify(answer)]
  },
)
const decode = step("decode", bodies, (all) => {
  for (const body of all) sink = steps.decode(body)
})
const decide = step("decide", decodedAll, (all) => {
  for (const decoded of all) sink = steps.decide(decoded)
})
let chainHead = "0".repeat(64)
const rows = step("rows", decidedAll, (all) => {
  for (const decided of all) {
    const written: Array<EventRow> = steps.rows(decided.writes, Date.now(), chainHead)
    chainHead = written.at(-1)?.chainHash ?? chainHead
  }
})
const answer = step("answer", decidedAll, (all) => {
  for (const decided of all) sink = stringifyJson(steps.answer(decided.order))
})
const whole = step("all four", bodies, (all) => {
  for (const body of all) {
    const decoded = steps.decode(body) as DecodedCreate
    const decided = steps.decide(decoded) as DecidedCreate
    chainHead = steps.rows(decided.writes, Date.now(), chainHead).at(-1)?.chainHash ?? chainHead
    sink = stringifyJson(steps.answer(decided.order))
  }
})

const workloads = [baseline, decode, decide, rows, answer, whole] as ReadonlyArray<Workload<unknown>>
const measurements = await measureTogether(workloads)
const [baselineRate, ...stepRates] = measurements
console.log(formatTable(stepRates.map((measured) => comparisonOf(measured, baselineRate, "creates"))))
console.log("\nthe event loop's time a create, medians of the measured runs:")
for (const m of measurements) console.log(`- ${m.name}: ${(1e6 / m.operationsPerSecond).toFixed(1)} µs`)
if (sink === undefined) throw new Error("gatewaySteps: nothing was computed")
console.log(describeMachine())
