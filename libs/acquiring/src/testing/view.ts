import { accountBalances } from "../refundAllocation.ts"
import { activeRefunds, isOrder, paymentOf, remainRefundFils, type State } from "../state.ts"
import type { OrderView } from "./model.ts"

const accountName = (account: ReturnType<typeof accountBalances>[number]["account"]): string =>
  account.kind === "sharing" ? `sharing ${account.sharingIdentitySeqId}` : account.kind

/** The real order in the model's terms (`OrderView`), to compare with `viewOfModel`. */
export const viewOfOrder = (state: State): OrderView => {
  if (!isOrder(state))
    return {
      status: "ABSENT",
      revoked: false,
      paidFils: 0,
      refundedFils: 0,
      pendingRefundFils: 0,
      remainRefundFils: 0,
      accounts: [],
    }
  const payment = paymentOf(state)
  return {
    status: state.status,
    revoked: state.revoked,
    paidFils: payment?.paidAmountFils ?? 0,
    refundedFils: state.refundedFils,
    pendingRefundFils: state.pendingRefundFils,
    remainRefundFils: remainRefundFils(state),
    accounts:
      payment === undefined
        ? []
        : accountBalances(payment, activeRefunds(state)).map((b) => ({
            account: accountName(b.account),
            receivedFils: b.receivedFils,
            refundedFils: b.refundedFils,
          })),
  }
}
