/**
 * The IBAN holder name check as the wire answers it: the domain's level and
 * verdict (libs/transfer, `nameMatchingLevel`) in the form of PayBy's
 * published documentation, whose only sample answers
 * `"nameMatchingLevel": "1"` with `"nameMatchingResult": "TRUE"` and names
 * no meanings. docs/api.md#iban-holder-name-matching gives this mapping to
 * merchants; change one, change both.
 */
import type { ResponseBodyOf, WireNameMatchingLevel, WireNameMatchingResult } from "@mizan/protocol"
import type { IbanHolderName, NameMatchingLevel, NameMatchingResult } from "@mizan/transfer"

export type WireIbanHolderName = ResponseBodyOf<"/transfer/getIbanHolderName">["ibanHolderName"]

/**
 * Levels as numbers, 1 the closest and each next one further off, so that
 * a merchant comparing them as numbers reads them in order; the sample's
 * "1" with "TRUE" is the exact match.
 */
export const wireNameMatchingLevel: Readonly<Record<NameMatchingLevel, WireNameMatchingLevel>> = {
  EXACT: "1",
  REORDERED: "2",
  PARTIAL: "3",
  NONE: "4",
}

/**
 * TRUE only for a name to pay to as it stands (MATCH). A close match
 * (PARTIAL) asks the payer first, so it is not TRUE: a merchant's code
 * that pays on TRUE never pays a name the check could not confirm.
 */
export const wireNameMatchingResult: Readonly<Record<NameMatchingResult, WireNameMatchingResult>> = {
  MATCH: "TRUE",
  CLOSE_MATCH: "FALSE",
  NO_MATCH: "FALSE",
}

export const toWireIbanHolderName = (check: IbanHolderName): WireIbanHolderName => ({
  holderNameMask: check.holderNameMask,
  nameMatchingLevel: wireNameMatchingLevel[check.nameMatchingLevel],
  nameMatchingResult: wireNameMatchingResult[check.nameMatchingResult],
})
