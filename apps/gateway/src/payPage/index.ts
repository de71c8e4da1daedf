/** The hosted pay page: what a payer opens from interactionParams.tokenUrl. */
export { type PayPageSettings, payPageRoutes } from "./routes.ts"
export { challengePage, notFoundPage, type OrderView, orderPage } from "./views.ts"
