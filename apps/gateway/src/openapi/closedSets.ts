/**
 * Fields whose values are a closed set the wire schema does not say, as
 * enums. The wire lets any text through where the domain decides (an
 * unknown scene code is refused with 62012 by the order, not by the
 * decoder, as the spec says), but a merchant's client should know the set.
 */
import { paySceneCodes } from "@mizan/kernel"
import { type BankTransfer, WalletTransfer } from "@mizan/transfer"
import { type Json, mapSchema } from "./tree.ts"

/**
 * The statuses a bank transfer order is answered with. The spec leaves the
 * list "not shown"; these are the service's own (libs/transfer's bank
 * state): a Record over that state's statuses fails to compile when one is
 * added or removed there.
 */
const bankTransferStatus: Readonly<Record<BankTransfer.BankTransferOrder["status"], true>> = {
  CREATED: true,
  SUCCESS: true,
  FAILURE: true,
}

/** Enums by field name, wherever the field appears. */
const enumsByField: Readonly<Record<string, ReadonlyArray<string>>> = {
  paySceneCode: paySceneCodes,
}

/** Enums by component and field, where the same name means other things elsewhere (`status`). */
export const enumsByComponent: Readonly<Record<string, Readonly<Record<string, ReadonlyArray<string>>>>> = {
  TransferToBankOrder: { status: Object.keys(bankTransferStatus) },
  // Why a wallet transfer failed: the domain's own closed set. An acquiring order's failCode stays
  // open text: the spec's own sample answers "CANCELLED" where this service writes ORDER_CANCELLED.
  TransferOrder: { failCode: WalletTransfer.WalletFailCode.literals },
}

const withEnums = (node: Json, enums: Readonly<Record<string, ReadonlyArray<string>>>): Json => {
  if (node.properties === undefined) return node
  const properties = Object.fromEntries(
    Object.entries(node.properties as Record<string, Json>).map(([name, property]) => {
      const values = enums[name]
      return [name, values === undefined || property.type !== "string" ? property : { ...property, enum: [...values] }]
    }),
  )
  return { ...node, properties }
}

/** The schema with every field of a closed set given its enum; `component` names the schema when it is one. */
export const withClosedSets = (schema: Json, component?: string): Json => {
  const byField = mapSchema(schema, (node) => withEnums(node, enumsByField))
  const own = component === undefined ? undefined : enumsByComponent[component]
  return own === undefined ? byField : withEnums(byField, own)
}
