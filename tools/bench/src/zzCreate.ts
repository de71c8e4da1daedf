// scratch: event-loop time per create through the in-process gateway (not committed)
import { performance } from "node:perf_hooks"
import { signedCreates } from "./gatewayLoad.ts"
import { startInProcessGateway } from "./sealingGateway.ts"

const n = Number(process.env.N ?? 4000)
const inFlight = Number(process.env.F ?? 64)
const rounds = Number(process.env.R ?? 5)
const gateway = startInProcessGateway(true)
const send = async (creates: ReturnType<typeof signedCreates>) => {
  let next = 0
  const sender = async () => {
    while (next < creates.length) {
      const create = creates[next++]!
      const response = await gateway.handle(
        new Request("http://127.0.0.1/sgs/api/acquire2/placeOrder", {
          method: "POST",
          body: create.body,
          headers: { "content-type": "application/json", "partner-id": "BENCH", sign: create.sign },
        }),
      )
      const answer = await response.text()
      if (!answer.includes('"code":"0"')) throw new Error(answer.slice(0, 300))
    }
  }
  await Promise.all(Array.from({ length: inFlight }, sender))
}
await send(signedCreates(1000))
const results: Array<string> = []
for (let r = 0; r < rounds; r++) {
  const creates = signedCreates(n)
  const th0 = process.threadCpuUsage()
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  await send(creates)
  const wall = performance.now() - t0
  const th = process.threadCpuUsage(th0)
  const cpu = process.cpuUsage(cpu0)
  results.push(
    `loop ${((th.user + th.system) / n).toFixed(0)} µs/create, cpu ${((cpu.user + cpu.system) / n).toFixed(0)} µs, rate ${((n / wall) * 1000).toFixed(0)}/s`,
  )
}
console.log(results.join("\n"))
await gateway.close()
