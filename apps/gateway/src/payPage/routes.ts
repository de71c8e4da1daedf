/**
 * The hosted pay page's HTTP routes (interactionParams.tokenUrl):
 *
 * - `GET /pay/:token` shows the order as it is now (an expired order is
 *   closed by this read: `readOrderExpiringIfDue`).
 * - `POST /pay/:token/3ds` is the target of DIRECTPAY's threeDSecureDom
 *   form: the sandbox's 3-D Secure challenge.
 * - `POST /pay/:token/pay` and `POST /pay/:token/fail` (sandbox only) report
 *   the payer's outcome, then redirect (303) to the order's page, so the
 *   result page is the order's own state and a reload never pays twice.
 *
 * Why this is safe from cross-site request forgery without a CSRF token:
 * the page has no session, cookie or other ambient authority for a forged
 * request to borrow. The capability is the token in the path, the order's
 * names sealed with a key only this service holds (payToken.ts); a site
 * that can make a browser POST to `/pay/<token>/pay` already knows the
 * token, and could POST it itself. The outcomes are POST only, so links,
 * prefetchers and crawlers (which GET) never decide an order.
 */

import { randomBytes } from "node:crypto"
import { AcquiringOrder } from "@mizan/acquiring"
import type { EventStore } from "@mizan/eventsourcing"
import type { Timestamp } from "@mizan/kernel"
import { withoutUndefined } from "@mizan/kernel"
import { readOrderExpiringIfDue } from "@mizan/order-flows"
import { Cause, Clock, Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { failPayment, payOrder, sandboxCard } from "../payerOutcomes.ts"
import { payPagePath, readPayToken } from "../payToken.ts"
import { ApiSettings, type Merchant } from "../pipeline/apiSettings.ts"
import type { HandlerError } from "../pipeline/pipeline.ts"
import { type LanguageChoice, languageOf, languageQuery } from "./language.ts"
import { payPageHeaders, type RenderedPage, type ServiceFacts } from "./layout.ts"
import { challengePage, errorPage, notFoundPage, type OrderView, orderPage } from "./views.ts"

type Mode = "sandbox" | "production"

/** The gateway configuration's `payPage`: what the trust footer names. */
export interface PayPageSettings {
  readonly serviceName?: string
  readonly termsUrl?: string
  readonly privacyUrl?: string
}

/** The footer's name when the configuration gives none. */
export const serviceNameDefault = "Mizan"

const serviceFactsOf = (settings: PayPageSettings | undefined): ServiceFacts =>
  withoutUndefined({
    serviceName: settings?.serviceName ?? serviceNameDefault,
    termsUrl: settings?.termsUrl,
    privacyUrl: settings?.privacyUrl,
  })

/** The page's language: the switch link's `?lang=`, else the browser's Accept-Language. */
const requestLanguage = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
  languageOf(new URL(request.url, "http://pay.page").searchParams, request.headers["accept-language"]),
)

/** What the pay page's routes need: built once with the gateway's services. */
type PayPageServices = ApiSettings | EventStore

const htmlResponse = (page: RenderedPage, status = 200) =>
  HttpServerResponse.text(page.html, { status, headers: page.headers, contentType: "text/html; charset=utf-8" })

/** After an outcome, the order's page (in the language chosen): 303 turns the POST into a GET, so a reload only reads. */
const seeOrderPage = (token: string, language: LanguageChoice) =>
  HttpServerResponse.empty({
    status: 303,
    headers: { ...payPageHeaders, location: `${payPagePath(token)}${languageQuery(language)}` },
  })

interface PayableOrder {
  readonly view: OrderView
  readonly merchant: Merchant
  readonly now: Timestamp
}

/**
 * The order a token names, as it is now; undefined for a token this service
 * did not make, a merchant no longer configured or a stream with no order
 * (all answer the same 404, so a page never tells which).
 */
const orderOfToken = Effect.fn("Gateway.orderOfToken")(function* (
  token: string,
  language: LanguageChoice,
  service: ServiceFacts,
) {
  const gateway = yield* ApiSettings
  const name = readPayToken(token, gateway.servicePrivateKey)
  const merchant = name === undefined ? undefined : gateway.merchantOf(name.merchantId)
  if (name === undefined || merchant === undefined) return undefined
  // The payer acts on the merchant's order, so on the merchant's (sandbox) time.
  if (gateway.mode === "sandbox") yield* gateway.clocks.ensureLoaded(merchant.partnerId)
  const now = gateway.clocks.nowOf(merchant.partnerId)
  const order = yield* readOrderExpiringIfDue(
    merchant.partnerId,
    AcquiringOrder.streamId(merchant.partnerId, name.merchantOrderNo),
    now,
  ).pipe(
    // Reading may close an expired order: that event is recorded on the merchant's time too.
    Effect.provideService(Clock.Clock, gateway.clocks.clockOf(merchant.partnerId)),
    Effect.catchTag("Rejection", () => Effect.succeed(undefined)),
  )
  if (order === undefined) return undefined
  const { logoUrl, brandColor } = merchant.config
  const view: OrderView = {
    order,
    merchant: withoutUndefined({ name: merchant.config.name ?? merchant.partnerId, logoUrl, brandColor }),
    token,
    mode: gateway.mode,
    now,
    language,
    service,
  }
  return { view, merchant, now } satisfies PayableOrder
})

/** 3-D Secure is DIRECTPAY's step; a failed challenge says so to the merchant. */
const failureOf = (view: OrderView) =>
  view.order.request.paySceneCode === "DIRECTPAY"
    ? { failCode: "THREE_D_SECURE_FAILED", failDes: "the payer did not pass 3-D Secure verification" }
    : {}

type Page = (found: PayableOrder) => Effect.Effect<HttpServerResponse.HttpServerResponse, HandlerError, PayPageServices>

const showOrder: Page = ({ view }) => Effect.succeed(htmlResponse(orderPage(view)))

const showChallenge: Page = ({ view }) =>
  Effect.succeed(
    htmlResponse(
      view.mode === "sandbox" && view.order.status === "CREATED" ? challengePage(view, sandboxCard) : orderPage(view),
    ),
  )

/**
 * Runs an outcome, then shows the order. A refusal (the order was paid or
 * closed meanwhile) is not an error for the payer: the order's page says
 * what the order is now.
 */
const outcome =
  (report: (found: PayableOrder) => Effect.Effect<unknown, HandlerError, PayPageServices>): Page =>
  (found) =>
    report(found).pipe(
      Effect.provideServiceEffect(
        Clock.Clock,
        Effect.map(ApiSettings, (gateway) => gateway.clocks.clockOf(found.merchant.partnerId)),
      ),
      Effect.catchTag("Rejection", (rejection) => Effect.logInfo(`pay page: outcome refused: ${rejection.message}`)),
      Effect.as(seeOrderPage(found.view.token, found.view.language)),
    )

const pay = outcome(({ merchant, view, now }) => payOrder(merchant, view.order.request.merchantOrderNo, now))
const fail = outcome(({ merchant, view, now }) =>
  failPayment(merchant, view.order.request.merchantOrderNo, now, failureOf(view)),
)

/** One route's handling: the token's order, the page, and a 404 or an error page otherwise. */
const servePage = (page: Page, service: ServiceFacts) =>
  Effect.gen(function* () {
    const gateway = yield* ApiSettings
    const language = yield* requestLanguage
    const { token = "" } = yield* HttpRouter.params
    const found = yield* orderOfToken(token, language, service)
    if (found === undefined) return htmlResponse(notFoundPage(gateway.mode, language, service), 404)
    return yield* page(found)
  }).pipe(
    Effect.catchCause((cause) =>
      Effect.gen(function* () {
        const gateway = yield* ApiSettings
        const language = yield* requestLanguage
        const traceCode = randomBytes(8).toString("hex")
        // The log line names the trace code and the failure, never the token (the capability to pay).
        yield* Effect.logError(`${traceCode} pay page failed`, Cause.pretty(cause))
        return htmlResponse(errorPage(gateway.mode, language, service, traceCode), 500)
      }),
    ),
  )

/**
 * The pay page's routes. As in `apiRoutes`, the services are taken once
 * when the routes are built and given to each request. In production the
 * page shows orders but takes no outcomes: the payment channels that would
 * report them are not part of this project.
 */
export const payPageRoutes = (mode: Mode, settings?: PayPageSettings) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const context = yield* Effect.context<PayPageServices>()
      const router = yield* HttpRouter.HttpRouter
      const service = serviceFactsOf(settings)
      const route = (method: "GET" | "POST", path: `/${string}`, page: Page) =>
        router.add(method, path, servePage(page, service).pipe(Effect.provideContext(context)))
      yield* route("GET", "/pay/:token", showOrder)
      yield* route("POST", "/pay/:token/3ds", showChallenge)
      if (mode === "sandbox") {
        yield* route("POST", "/pay/:token/pay", pay)
        yield* route("POST", "/pay/:token/fail", fail)
      }
    }),
  )
