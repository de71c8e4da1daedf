/**
 * Stream ids of the transfer aggregates: one stream per order, keyed by the
 * merchant and its order number (DESIGN.md, Consistency). The id must be
 * injective even when the parts contain the separator, so each part escapes
 * "%" and "/" before the parts are joined with "/": splitting on "/" and
 * unescaping gives the parts back, so two different keys never share a stream.
 */
const escapePart = (part: string): string => part.replaceAll("%", "%25").replaceAll("/", "%2F")

export const streamIdOf = (kind: string, ...parts: ReadonlyArray<string>): string =>
  [kind, ...parts.map(escapePart)].join("/")
