/**
 * The payout helpers (spec: 7. payout ability list, 8. rate calculator,
 * 9. IBAN holder name): answers computed from configuration and ports,
 * nothing recorded.
 */
import { reject, withoutUndefined } from "@mizan/kernel"
import { toWireFundoutInfo, toWireIbanHolderName } from "@mizan/order-views"
import { calculateFundout, PayoutAbilities, queryIbanHolderName, toFundoutAbilityItem } from "@mizan/transfer"
import { Effect } from "effect"
import type { Handlers } from "../pipeline/pipeline.ts"
import { revealField, revealOptional } from "../pipeline/sensitive.ts"
import type { HandlerServices } from "./services.ts"

const ibanQuery = "/transfer/getIbanHolderName"

export const payoutHandlers: Pick<
  Handlers<HandlerServices>,
  "/transfer/getFundoutAbilityList" | "/transfer/calculateFundout" | "/transfer/getIbanHolderName"
> = {
  "/transfer/getFundoutAbilityList": (call) =>
    Effect.map(
      Effect.flatMap(PayoutAbilities, (abilities) => abilities.abilitiesOf(call.merchant.partnerId)),
      (abilities) => ({ fundoutAbilityList: abilities.map(toFundoutAbilityItem) }),
    ),

  // 62076 when the network and currency are not an enabled ability of the merchant, or have no rate.
  "/transfer/calculateFundout": (call, request) =>
    Effect.map(calculateFundout(call.merchant.partnerId, request), (quote) => ({
      fundoutInfo: toWireFundoutInfo(quote),
    })),

  /**
   * The IBAN and names are decrypted here, checked and compared, then
   * dropped: nothing of the query is recorded. The protocol reads the
   * request leniently (only holderName required, as the spec's sample
   * sends), so an absent iban is no valid IBAN: 62101.
   */
  "/transfer/getIbanHolderName": (_call, request) =>
    Effect.gen(function* () {
      if (request.iban === undefined)
        return yield* Effect.fail(reject("WRONG_IBAN_FORMAT", "bizContent.iban is required to look up its holder name"))
      const iban = yield* revealField(ibanQuery, "iban", request.iban)
      const holderName = yield* revealField(ibanQuery, "holderName", request.holderName)
      const beneficiaryAddress = yield* revealOptional(ibanQuery, "beneficiaryAddress", request.beneficiaryAddress)
      // Not needed for the query, but a field that does not decrypt is the client's mistake all the same.
      yield* revealOptional(ibanQuery, "accountNo", request.accountNo)
      const check = yield* queryIbanHolderName(
        withoutUndefined({ iban, holderName, beneficiaryAddress, swiftCode: request.swiftCode }),
      )
      return { ibanHolderName: toWireIbanHolderName(check) }
    }),
}
