/** The hosted pay page: what a payer opens from interactionParams.tokenUrl. */
export { payPageRoutes } from "./routes.ts"
export { challengePage, formatUtc, notFoundPage, type OrderView, orderPage } from "./views.ts"
