import { type Rejection, reject, rejectField } from "@mizan/kernel"
import { Effect, Result } from "effect"
import { HolderNameLookup } from "./HolderNameLookup.ts"
import {
  maskHolderName,
  type NameMatchingLevel,
  type NameMatchingResult,
  nameMatchingLevel,
  nameMatchingResultOf,
} from "./holderName.ts"
import { parseIban } from "./iban.ts"

/** holderName plus beneficiaryAddress, in characters (spec: Limits). */
export const holderNameAndAddressMaxChars = 140

/** Characters as a person counts them: code points, so an accented or non-Latin letter counts once. */
export const charCount = (text: string): number => [...text].length

/** The rule shared by the IBAN query and the bank transfer, on clear lengths measured at the edge. */
export const holderNameAndAddressFit = (holderNameChars: number, beneficiaryAddressChars: number): boolean =>
  holderNameChars + beneficiaryAddressChars <= holderNameAndAddressMaxChars

export const holderNameAndAddressTooLong = (): Rejection =>
  rejectField(
    "INVALID_PARAMETER",
    "holderName",
    `plus beneficiaryAddress must be at most ${holderNameAndAddressMaxChars} characters`,
  )

/** The query's clear values, decrypted at the edge; none of them is kept. */
export interface IbanHolderNameQuery {
  readonly iban: string
  readonly holderName: string
  readonly beneficiaryAddress?: string
  readonly swiftCode?: string
}

/** The check's outcome, by the domain's names (the wire's `ibanHolderName` in libs/order-views). */
export interface IbanHolderName {
  readonly holderNameMask: string
  readonly nameMatchingLevel: NameMatchingLevel
  readonly nameMatchingResult: NameMatchingResult
}

/**
 * The IBAN holder name operation (spec: 9): 62101 WRONG_IBAN_FORMAT for an
 * IBAN that fails ISO 13616, 400 INVALID_PARAMETER when holderName plus
 * beneficiaryAddress pass 140 characters, 62102 NAME_NOT_FOUND when the
 * bank knows no holder, 62103 QUERY_API_UNAVAILABLE when the lookup fails.
 */
export const queryIbanHolderName = Effect.fnUntraced(function* (query: IbanHolderNameQuery) {
  const iban = parseIban(query.iban)
  if (Result.isFailure(iban)) return yield* Effect.fail(iban.failure)
  if (!holderNameAndAddressFit(charCount(query.holderName), charCount(query.beneficiaryAddress ?? "")))
    return yield* Effect.fail(holderNameAndAddressTooLong())
  const lookup = yield* HolderNameLookup
  const registered = yield* lookup
    .registeredHolderName(
      query.swiftCode === undefined ? { iban: iban.success } : { iban: iban.success, swiftCode: query.swiftCode },
    )
    .pipe(
      Effect.catchTags({
        HolderNameNotFound: () => Effect.fail(reject("NAME_NOT_FOUND", "no holder name is registered for the IBAN")),
        HolderNameLookupUnavailable: () =>
          Effect.fail(reject("QUERY_API_UNAVAILABLE", "the holder name lookup is unavailable, retry later")),
      }),
    )
  const level = nameMatchingLevel(query.holderName, registered)
  return {
    holderNameMask: maskHolderName(registered),
    nameMatchingLevel: level,
    nameMatchingResult: nameMatchingResultOf[level],
  }
})
