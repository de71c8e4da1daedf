/**
 * What a payer sees: a checkout. The merchant first (its logo and name),
 * the total as the largest text, what it is for, and how long is left; one
 * Pay button; the reference in small print. Every final state (paid,
 * failed, expired, cancelled) says whether money moved and what to do next:
 * a receipt with a way back to the merchant, or how to retry or whom to
 * contact. In the sandbox, the outcomes a merchant tests live in a panel of
 * their own, apart from the payer's checkout. Views are pure: an order in,
 * a page out.
 */
import type { AcquiringOrder } from "@mizan/acquiring"
import type { Timestamp } from "@mizan/kernel"
import { withoutUndefined } from "@mizan/kernel"
import { payPagePath } from "../payToken.ts"
import { type Copy, copyOf } from "./copy.ts"
import { formatGulfTime, formatMoney, timeLeft } from "./format.ts"
import { type Html, html } from "./html.ts"
import { type Language, type LanguageChoice, languageQuery } from "./language.ts"
import { type RenderedPage, renderPage, type ServiceFacts } from "./layout.ts"

type Mode = "sandbox" | "production"

/** What the page shows of the merchant, from its configuration. */
export interface MerchantFacts {
  /** The merchant's name, or its Partner-Id when it has none. */
  readonly name: string
  readonly logoUrl?: string
  readonly brandColor?: string
}

/** An order as its pay page shows it. */
export interface OrderView {
  readonly order: AcquiringOrder.Order
  readonly merchant: MerchantFacts
  readonly token: string
  readonly mode: Mode
  /** The merchant's time now (its sandbox clock), for the time left. */
  readonly now: Timestamp
  readonly language: LanguageChoice
  readonly service: ServiceFacts
}

/** The sandbox's outcome forms post here; the token in the path names the order. */
export const payActionPath = (token: string): string => `${payPagePath(token)}/pay`
export const failActionPath = (token: string): string => `${payPagePath(token)}/fail`

/** Whether the sandbox offers the payer its outcomes: an order still open, in sandbox mode. */
export const isPayable = (order: AcquiringOrder.Order, mode: Mode): boolean =>
  mode === "sandbox" && order.status === "CREATED"

/** Only a web address leads back: a `javascript:` redirectUrl would run script, escaped or not. */
const safeRedirectUrl = (order: AcquiringOrder.Order): string | undefined => {
  const redirectUrl = order.paySceneParams.redirectUrl
  if (redirectUrl === undefined || !URL.canParse(redirectUrl)) return undefined
  const protocol = new URL(redirectUrl).protocol
  return protocol === "https:" || protocol === "http:" ? redirectUrl : undefined
}

/** The merchant's own words keep their own direction inside ours. */
/** A time with its zone, as every time on the page is shown: a payer abroad must not read it as their own. */
const zoned = (at: Timestamp, language: Language, copy: Copy) => copy.inGulfTime(formatGulfTime(at, language))

const merchantText = (text: string) => html`<bdi dir="auto">${text}</bdi>`

const merchantHeader = (merchant: MerchantFacts) =>
  html`<div class="merchant">${merchant.logoUrl === undefined ? undefined : html`<img src="${merchant.logoUrl}" alt="" width="44" height="44">`}<p class="merchant-name" dir="auto">${merchant.name}</p></div>`

type NoticeKind = "ok" | "bad" | "info"
const notice = (kind: NoticeKind, text: Html | string) => html`<p class="notice ${kind}" role="status">${text}</p>`

const amountOf = (view: OrderView) => formatMoney(view.order.request.totalAmountFils, view.language.language)

/** The checkout's summary: the total, largest; what it is for; how long is left while it can be paid. */
const summary = (view: OrderView, copy: Copy) => {
  const { order } = view
  const language = view.language.language
  return html`<p class="total">${amountOf(view)}</p>
<p class="subject" dir="auto">${order.request.subject}</p>
${order.status === "CREATED" ? html`<p class="deadline">${copy.expiresIn(timeLeft(view.now, order.expiredTime), zoned(order.expiredTime, language, copy))}</p>` : undefined}`
}

const reference = (view: OrderView, copy: Copy) => html`<p class="fine">${copy.reference}: ${view.order.orderNo}</p>`

/** The way back to the merchant, as the page's main button; undefined without a redirectUrl. */
const returnButton = (view: OrderView, copy: Copy) => {
  const redirectUrl = safeRedirectUrl(view.order)
  return redirectUrl === undefined
    ? undefined
    : html`<a class="primary" href="${redirectUrl}">${copy.returnTo(merchantText(view.merchant.name))}</a>`
}

/** What to do after a final state: back to the merchant when it gave a way, and always whom to ask. */
const nextStep = (view: OrderView, copy: Copy, guidance: Html) =>
  html`${returnButton(view, copy)}<p class="next">${guidance}</p>`

const lastFailedAttempt = (order: AcquiringOrder.Order) => order.failedAttempts.at(-1)

/**
 * The sandbox's outcomes: Pay in the checkout itself, and a decline in a
 * panel of its own, marked as a test. Forms that POST (never links, so that
 * no prefetcher or crawler following a link can decide an order).
 */
const payForm = (view: OrderView, label: string) =>
  html`<form method="post" action="${payActionPath(view.token)}${languageQuery(view.language)}"><button type="submit" class="primary">${label}</button></form>`

const testOutcomes = (view: OrderView, copy: Copy, failLabel: string) =>
  html`<section class="test-outcomes" aria-labelledby="test-outcomes">
<h2 id="test-outcomes">${copy.testOutcomes}</h2>
<p>${copy.testOutcomesHelp}</p>
<form method="post" action="${failActionPath(view.token)}${languageQuery(view.language)}"><button type="submit" class="secondary">${failLabel}</button></form>
</section>`

interface Shown {
  readonly heading: string
  readonly body: Html
}

const checkout = (view: OrderView, copy: Copy): Shown => {
  if (view.mode === "production")
    return {
      heading: copy.unavailableHeading,
      body: html`${summary(view, copy)}${notice("info", copy.unavailableText)}${reference(view, copy)}`,
    }
  const declined = lastFailedAttempt(view.order) === undefined ? undefined : notice("bad", copy.declinedRetry)
  return {
    heading: copy.checkoutHeading,
    body: html`${summary(view, copy)}
${declined}
${payForm(view, copy.pay(amountOf(view)))}
${reference(view, copy)}
${testOutcomes(view, copy, copy.decline)}`,
  }
}

const receipt = (
  view: OrderView,
  copy: Copy,
  payment: { paidAmountFils: AcquiringOrder.Order["request"]["totalAmountFils"]; paidTime: Timestamp },
): Shown => {
  const language = view.language.language
  const detail = (term: string, value: Html | string) => html`<dt>${term}</dt><dd>${value}</dd>`
  return {
    heading: copy.paidHeading,
    body: html`<p class="total">${formatMoney(payment.paidAmountFils, language)}</p>
<p class="subject" dir="auto">${view.order.request.subject}</p>
<dl class="receipt">
${detail(copy.paidOn, zoned(payment.paidTime, language, copy))}
${detail(copy.merchant, merchantText(view.merchant.name))}
${detail(copy.reference, view.order.orderNo)}
</dl>
${nextStep(view, copy, html`${copy.closePage}`)}
<p class="fine">${copy.receiptNote}</p>`,
  }
}

/** A final state in which no money moved: what happened, then the next step. */
const closed = (view: OrderView, copy: Copy, heading: string, text: string, guidance: Html): Shown => ({
  heading,
  body: html`${summary(view, copy)}${notice("bad", text)}${nextStep(view, copy, guidance)}${reference(view, copy)}`,
})

const shownOf = (view: OrderView, copy: Copy): Shown => {
  const { order } = view
  const merchant = merchantText(view.merchant.name)
  switch (order.status) {
    case "CREATED":
      return checkout(view, copy)
    case "PAID_SUCCESS":
    case "SETTLED":
      return order.revoked
        ? {
            heading: copy.paymentRevokedHeading,
            body: html`${summary(view, copy)}${notice("info", copy.paymentRevokedText)}${nextStep(view, copy, copy.contactNext(merchant))}${reference(view, copy)}`,
          }
        : receipt(view, copy, order.payment)
    case "FAILURE":
      switch (order.failure.failCode) {
        case "PAYMENT_FAILED":
          return closed(view, copy, copy.failedHeading, copy.declinedFinal, copy.failedNext(merchant))
        case "ORDER_EXPIRED":
          return closed(
            view,
            copy,
            copy.expiredHeading,
            copy.expiredText(zoned(order.expiredTime, view.language.language, copy)),
            copy.expiredNext(merchant),
          )
        case "ORDER_CANCELLED":
          return closed(view, copy, copy.cancelledHeading, copy.cancelledText, copy.contactNext(merchant))
        case "ORDER_REVOKED":
          return closed(view, copy, copy.revokedHeading, copy.revokedText, copy.contactNext(merchant))
      }
  }
}

const frameOf = (view: OrderView, title: string) => ({
  title: `${title} · ${view.merchant.name}`,
  mode: view.mode,
  language: view.language,
  service: view.service,
  path: payPagePath(view.token),
  ...withoutUndefined({ brandColor: view.merchant.brandColor }),
  images: view.merchant.logoUrl !== undefined,
})

/** The pay page: the order as it is now, in the payer's language. */
export const orderPage = (view: OrderView): RenderedPage => {
  const copy = copyOf[view.language.language]
  const shown = shownOf(view, copy)
  return renderPage(
    frameOf(view, shown.heading),
    html`${merchantHeader(view.merchant)}
<h1>${shown.heading}</h1>
${shown.body}`,
  )
}

/**
 * The sandbox's 3-D Secure challenge (the DIRECTPAY form posts here): the
 * issuer's "confirm this payment" step, with the same two outcomes.
 */
export const challengePage = (
  view: OrderView,
  card: { readonly brand: string; readonly last4: string },
): RenderedPage => {
  const copy = copyOf[view.language.language]
  return renderPage(
    frameOf(view, copy.challengeHeading),
    html`${merchantHeader(view.merchant)}
<h1>${copy.challengeHeading}</h1>
${summary(view, copy)}
<p>${copy.challengeText}</p>
<dl>
<dt>${copy.card}</dt><dd>${copy.cardEnding(card.brand, card.last4)}</dd>
</dl>
${payForm(view, copy.confirm)}
${testOutcomes(view, copy, copy.failVerification)}`,
  )
}

/** A page with no order behind it (an unknown link, a failure): its heading and text, in the payer's language. */
const plainPage = (
  mode: Mode,
  language: LanguageChoice,
  service: ServiceFacts,
  words: (copy: Copy) => { readonly heading: string; readonly text: string; readonly fine?: string },
) => {
  const { heading, text, fine } = words(copyOf[language.language])
  return renderPage(
    { title: heading, mode, language, service },
    html`<h1>${heading}</h1>
<p>${text}</p>
${fine === undefined ? undefined : html`<p class="fine">${fine}</p>`}`,
  )
}

export const notFoundPage = (mode: Mode, language: LanguageChoice, service: ServiceFacts): RenderedPage =>
  plainPage(mode, language, service, (copy) => ({ heading: copy.notFoundHeading, text: copy.notFoundText }))

export const errorPage = (
  mode: Mode,
  language: LanguageChoice,
  service: ServiceFacts,
  traceCode: string,
): RenderedPage =>
  plainPage(mode, language, service, (copy) => ({
    heading: copy.errorHeading,
    text: copy.errorText,
    fine: `${copy.reference}: ${traceCode}`,
  }))
