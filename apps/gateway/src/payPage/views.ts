/**
 * What a payer sees: the order (merchant, subject, amount, status) and, for
 * an order that can still be paid in the sandbox, the outcomes to choose
 * from. Views are pure: an order in, a document out.
 */
import type { Order } from "@mizan/acquiring"
import { formatAed, type Timestamp } from "@mizan/kernel"
import { payPagePath } from "../payToken.ts"
import { type Html, html } from "./html.ts"
import { pageDocument } from "./layout.ts"

type Mode = "sandbox" | "production"

/** An order as its pay page shows it. */
export interface OrderView {
  readonly order: Order
  /** The merchant's name from configuration, or its Partner-Id. */
  readonly merchantName: string
  readonly token: string
  readonly mode: Mode
}

/** `2026-11-05 14:03 UTC`: the service keeps UTC, so the page says so. */
export const formatUtc = (at: Timestamp): string => `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`

/** The sandbox's outcome forms post here; the token in the path names the order. */
export const payActionPath = (token: string): string => `${payPagePath(token)}/pay`
export const failActionPath = (token: string): string => `${payPagePath(token)}/fail`

type NoticeKind = "ok" | "bad" | "info"

interface Status {
  /** The page's heading and the status line of the order. */
  readonly headline: string
  readonly label: string
  readonly notice?: { readonly kind: NoticeKind; readonly text: string }
}

const lastFailedAttempt = (order: Order) => order.failedAttempts.at(-1)

const statusOf = (order: Order, mode: Mode): Status => {
  switch (order.status) {
    case "CREATED": {
      const failed = lastFailedAttempt(order)
      if (mode === "production")
        return {
          headline: "Payment not available here",
          label: "Awaiting payment",
          notice: {
            kind: "info",
            text: "Payment channels are not connected to this gateway, so this order cannot be paid on this page.",
          },
        }
      return {
        headline: "Pay this order",
        label: "Awaiting payment",
        ...(failed === undefined
          ? {}
          : {
              notice: { kind: "bad", text: `Your last payment attempt failed: ${failed.failDes}. You can try again.` },
            }),
      }
    }
    case "PAID_SUCCESS":
    case "SETTLED":
      return order.revoked
        ? {
            headline: "Payment revoked",
            label: "Revoked",
            notice: { kind: "info", text: "The merchant revoked this payment: it is being refunded." },
          }
        : {
            headline: "Payment received",
            label: "Paid",
            notice: { kind: "ok", text: `Paid on ${formatUtc(order.payment.paidTime)}. Thank you.` },
          }
    case "FAILURE":
      switch (order.failure.failCode) {
        case "ORDER_EXPIRED":
          return {
            headline: "This order expired",
            label: "Expired",
            notice: {
              kind: "bad",
              text: `This order expired on ${formatUtc(order.expiredTime)} before it was paid. It can no longer be paid.`,
            },
          }
        case "ORDER_CANCELLED":
          return {
            headline: "This order was cancelled",
            label: "Cancelled",
            notice: { kind: "bad", text: "The merchant cancelled this order. It can no longer be paid." },
          }
        case "ORDER_REVOKED":
          return {
            headline: "This order was revoked",
            label: "Revoked",
            notice: { kind: "bad", text: "The merchant revoked this order." },
          }
        case "PAYMENT_FAILED":
          return {
            headline: "Payment failed",
            label: "Payment failed",
            notice: {
              kind: "bad",
              text: `Payment failed: ${lastFailedAttempt(order)?.failDes ?? order.failure.failDes}. This order can no longer be paid.`,
            },
          }
      }
  }
}

/** Only a web address leads back: a `javascript:` redirectUrl would run script, escaped or not. */
const safeRedirectUrl = (order: Order): string | undefined => {
  const redirectUrl = order.paySceneParams.redirectUrl
  if (redirectUrl === undefined || !URL.canParse(redirectUrl)) return undefined
  const protocol = new URL(redirectUrl).protocol
  return protocol === "https:" || protocol === "http:" ? redirectUrl : undefined
}

/** Whether the sandbox offers the payer its outcomes: an order still open, in sandbox mode. */
export const isPayable = (order: Order, mode: Mode): boolean => mode === "sandbox" && order.status === "CREATED"

const detail = (term: string, value: Html | string) => html`<dt>${term}</dt><dd>${value}</dd>`

const orderDetails = (view: OrderView, status: Status) => {
  const { order } = view
  const payment = order.status === "CREATED" ? undefined : order.payment
  return html`<dl>
${detail("Merchant", view.merchantName)}
${detail("Order", order.request.subject)}
${detail("Amount", html`<span class="amount">${formatAed(order.request.totalAmountFils)}</span>`)}
${payment !== undefined && payment.paidAmountFils !== order.request.totalAmountFils ? detail("Paid", formatAed(payment.paidAmountFils)) : undefined}
${detail("Status", status.label)}
${order.status === "CREATED" ? detail("Pay by", formatUtc(order.expiredTime)) : undefined}
${detail("Reference", order.orderNo)}
</dl>`
}

const notice = (status: Status) =>
  status.notice === undefined
    ? undefined
    : html`<p class="notice ${status.notice.kind}" role="status">${status.notice.text}</p>`

/**
 * The sandbox's two outcomes, as forms that POST (never links, so that no
 * prefetcher or crawler following a link can decide an order).
 */
const outcomeForms = (token: string, labels: { readonly pay: string; readonly fail: string }) =>
  html`<div class="actions">
<form method="post" action="${payActionPath(token)}"><button type="submit">${labels.pay}</button></form>
<form method="post" action="${failActionPath(token)}"><button type="submit" class="secondary">${labels.fail}</button></form>
</div>
<p class="fine">Sandbox: choose the outcome your integration should see. The merchant is notified as in production.</p>`

const returnLink = (view: OrderView) => {
  const redirectUrl = safeRedirectUrl(view.order)
  const finished = view.order.status !== "CREATED" || lastFailedAttempt(view.order) !== undefined
  return redirectUrl === undefined || !finished
    ? undefined
    : html`<p><a href="${redirectUrl}">Return to ${view.merchantName}</a></p>`
}

/** The pay page: the order, its status, and in the sandbox the outcomes while it can be paid. */
export const orderPage = (view: OrderView): string => {
  const status = statusOf(view.order, view.mode)
  const content = html`<h1>${status.headline}</h1>
${orderDetails(view, status)}
${notice(status)}
${isPayable(view.order, view.mode) ? outcomeForms(view.token, { pay: `Pay ${formatAed(view.order.request.totalAmountFils)}`, fail: "Fail payment" }) : undefined}
${returnLink(view)}`
  return pageDocument({ title: `${status.headline} · ${view.merchantName}`, mode: view.mode }, content)
}

/**
 * The sandbox's 3-D Secure challenge (the DIRECTPAY form posts here): the
 * issuer's "confirm this payment" step, with the same two outcomes.
 */
export const challengePage = (view: OrderView, card: { readonly brand: string; readonly last4: string }): string => {
  const { order } = view
  const content = html`<h1>Confirm your payment</h1>
<p>Your card issuer asks you to confirm this payment (3-D Secure, simulated by the sandbox).</p>
<dl>
${detail("Merchant", view.merchantName)}
${detail("Order", order.request.subject)}
${detail("Amount", html`<span class="amount">${formatAed(order.request.totalAmountFils)}</span>`)}
${detail("Card", `${card.brand} ending in ${card.last4}`)}
</dl>
${outcomeForms(view.token, { pay: "Confirm payment", fail: "Fail verification" })}`
  return pageDocument({ title: `Confirm your payment · ${view.merchantName}`, mode: view.mode }, content)
}

export const notFoundPage = (mode: Mode): string =>
  pageDocument(
    { title: "Payment link not found", mode },
    html`<h1>Payment link not found</h1>
<p>This payment link is not valid. Ask the merchant for a new one.</p>`,
  )

export const errorPage = (mode: Mode, traceCode: string): string =>
  pageDocument(
    { title: "Something went wrong", mode },
    html`<h1>Something went wrong</h1>
<p>The payment page could not be shown. Nothing was paid. Please try again in a moment.</p>
<p class="fine">Reference: ${traceCode}</p>`,
  )
