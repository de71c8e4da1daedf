/**
 * The ids every order carries, one schema each for every domain lib: a
 * length is the spec's, or the longest of the spec's where it names several.
 */
import { BoundedString, RequiredString } from "./strings.ts"

/** `Partner-Id`: the merchant's id, at most 12 characters. */
export const MerchantId = RequiredString(12)

/** The merchant's reference of an order or a refund: String(64). */
export const MerchantOrderNo = RequiredString(64)

/**
 * The service's own number of an order or a refund, generated at the edge
 * (26 digits today). The spec gives String(64) for a refund order and
 * String(32) for transfer orders; the wire schemas hold each answer to its
 * own length, the domain to the longer.
 */
export const OrderNo = RequiredString(64)

/** Where the merchant is notified: at most 200 characters (what the URL policy accepts is checked at the edge). */
export const NotifyUrl = BoundedString(200)
