/**
 * A reference model of one refund order's lifecycle, written from the spec
 * and the README apart from the decider: CREATED, REFUNDED_SETTLED, SUCCESS,
 * FAILURE, as plain strings. For any command it predicts events, nothing (a
 * repeat) or the refusal's code, and the status after it.
 */
import type { CodeName } from "@mizan/kernel"
import type { Command } from "../commands.ts"

export type RefundOutcome =
  | { readonly kind: "accepted" }
  | { readonly kind: "nothing" }
  | { readonly kind: "refused"; readonly code: CodeName }

export interface RefundModel {
  readonly merchantId: string
  readonly status: "ABSENT" | "CREATED" | "REFUNDED_SETTLED" | "SUCCESS" | "FAILURE"
  /** Whether the refund was settled (REFUNDED_SETTLED) before it failed or succeeded. */
  readonly settled: boolean
  /** The details as JSON, to tell a repeat from other parameters. */
  readonly detailsKey: string
}

export const emptyRefundModel = (merchantId: string): RefundModel => ({
  merchantId,
  status: "ABSENT",
  settled: false,
  detailsKey: "",
})

const accepted: RefundOutcome = { kind: "accepted" }
const nothing: RefundOutcome = { kind: "nothing" }
const refused = (code: CodeName): RefundOutcome => ({ kind: "refused", code })

/** The model's answer to one command, and the model after it. */
export const predictRefund = (
  model: RefundModel,
  command: Command,
): { readonly outcome: RefundOutcome; readonly model: RefundModel } => {
  const same = (outcome: RefundOutcome) => ({ outcome, model })
  const moved = (status: RefundModel["status"], settled = model.settled) => ({
    outcome: accepted,
    model: { ...model, status, settled },
  })
  if (command._tag === "CreateRefund") {
    const { details } = command
    const detailsKey = JSON.stringify(details)
    if (model.status !== "ABSENT")
      return same(model.detailsKey === detailsKey ? nothing : refused("REFUND_MERCHANT_ORDER_NO_EXIST"))
    const parts =
      details.payeeRefundFils +
      details.feeRefundedFils +
      details.sharingInfoList.reduce((total, member) => total + member.sharingSettledAmountFils, 0)
    if (parts !== details.amountFils) return same(refused("INVALID_PARAMETER"))
    return { outcome: accepted, model: { ...model, status: "CREATED", detailsKey } }
  }
  if (model.status === "ABSENT" || command.merchantId !== model.merchantId)
    return same(refused("MERCHANT_ORDER_NO_NOT_EXIST"))
  switch (command._tag) {
    case "SettleRefund":
      if (model.status === "CREATED") return moved("REFUNDED_SETTLED", true)
      if (model.status === "FAILURE" && !model.settled) return same(refused("ORDER_FAILURE"))
      return same(nothing)
    case "CompleteRefund":
      if (model.status === "CREATED" || model.status === "REFUNDED_SETTLED") return moved("SUCCESS", true)
      return same(model.status === "FAILURE" ? refused("ORDER_FAILURE") : nothing)
    case "FailRefund":
      if (model.status === "CREATED" || model.status === "REFUNDED_SETTLED") return moved("FAILURE")
      return same(model.status === "SUCCESS" ? refused("ORDER_SUCCESS") : nothing)
  }
}
