/**
 * What a sealed box is bound to, as AES-GCM's associated data: the stream it
 * is stored on (its id as stored), its subject, its data key's id and the
 * fields it holds. A box copied to another stream, or given another subject,
 * key or field list, does not open. The sealer's own layout, exported by no
 * entry of the package (the sealing benchmark reaches it by its source file).
 */
export const sealedBoxAssociatedData = (
  storedStreamId: string,
  entry: { readonly subject: string; readonly key: string; readonly fields: ReadonlyArray<string> },
) => `${storedStreamId}\u0000${entry.subject}\u0000${entry.key}\u0000${entry.fields.join(",")}`
