// Plain JavaScript on purpose: it runs on every Node a package claims, even those without type stripping.
// The built kernel and acquiring libs, as a user installs them: create an order and pay it.

import { AcquiringOrder } from "@mizan/acquiring"
import { fils, timestamp } from "@mizan/kernel"

const now = timestamp(Date.UTC(2026, 0, 1))
const apply = (state, command) => {
  const decision = AcquiringOrder.decide(command, state)
  if (decision._tag !== "Success") throw new Error(`refused: ${decision.failure.message}`)
  return decision.success.reduce(AcquiringOrder.evolve, state)
}
const request = { merchantOrderNo: "smoke-1", subject: "Smoke", totalAmountFils: fils(1_000), paySceneCode: "PAYPAGE" }
const created = apply(AcquiringOrder.initialState, {
  _tag: "CreateOrder",
  merchantId: "M1",
  now,
  orderNo: "N1",
  requestTime: now,
  request,
})
const paid = apply(created, {
  _tag: "PayOrder",
  merchantId: "M1",
  now,
  attemptId: "a1",
  paidAmountFils: fils(1_000),
  payChannel: "BANKCARD",
  payerFeeFils: fils(0),
  feePlan: { basisPoints: 0, fixedFils: fils(0) },
  payer: { payerMid: "P1", mobileNumberMask: "971***0000", deviceId: "d", ipAddress: "192.0.2.1" },
})
if (paid.status !== "PAID_SUCCESS") throw new Error(`expected PAID_SUCCESS, got ${paid.status}`)
console.log(`kernel + acquiring on Node ${process.version}: an order created and paid`)
