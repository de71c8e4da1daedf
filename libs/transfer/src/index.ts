/**
 * @mizan/transfer: wallet transfers, bank transfers, payout abilities, the
 * rate calculator, IBAN validation and holder-name query, and
 * virtual-account deposits (README.md says the cut). Each aggregate is a
 * namespace with the same names: aggregate, streamId, Command, Event,
 * State, initialState, decide, evolve, invariants.
 */

export { streamIdOf } from "@mizan/kernel"
export * as BankTransfer from "./bank/index.ts"
export * from "./common/fields.ts"
export * as VamDeposit from "./deposit/index.ts"
export * from "./iban/HolderNameLookup.ts"
export * from "./iban/holderName.ts"
export * from "./iban/iban.ts"
export * from "./iban/queryIbanHolderName.ts"
export * as MemberAccount from "./member/index.ts"
export * from "./payout/abilities.ts"
export * from "./payout/calculateFundout.ts"
export * from "./payout/currency.ts"
export * from "./payout/quote.ts"
export * from "./payout/RateSource.ts"
export * from "./payout/rate.ts"
export * from "./sealingPlan.ts"
export * as WalletTransfer from "./wallet/index.ts"
