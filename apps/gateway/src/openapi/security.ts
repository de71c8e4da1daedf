/**
 * How a request is authenticated, said where OpenAPI tools look for it: two
 * security schemes that together are the signature. OpenAPI has no scheme
 * for "a signature of the body", so each header is an `apiKey` scheme whose
 * description says exactly how it is made; both are required on every
 * operation (the document's `security`).
 */
import { partnerIdMaxChars } from "@mizan/protocol"

export const securitySchemes = {
  PartnerId: {
    type: "apiKey",
    in: "header",
    name: "Partner-Id",
    description: `The merchant's id (1 to ${partnerIdMaxChars} characters), which names the public key the signature is verified with. Header names are read in any letter case. An unknown Partner-Id answers exactly as a signature that does not verify, so the API never tells which ids exist.`,
  },
  Signature: {
    type: "apiKey",
    in: "header",
    name: "sign",
    description: [
      "The signature of the request, made anew for every request:",
      "",
      "1. Take the exact raw bytes of the HTTP request body (UTF-8 JSON), as they are sent. Nothing is sorted, trimmed or re-serialised: the signature covers the bytes, so serialise once and send those bytes.",
      "2. Sign them with the merchant's RSA private key (PKCS#8, at least 2048 bits) using SHA256withRSA: RSA PKCS#1 v1.5 over SHA-256.",
      "3. Send the standard Base64 (with padding) of the signature in the `sign` header.",
      "",
      "The service verifies it with the public key registered for the Partner-Id (SPKI PEM) before reading anything else; a signature that does not verify answers `applyStatus` ERROR, code 403.",
      "",
      "**The answer is signed too**: its `sign` header is the service's SHA256withRSA signature, Base64, of the exact raw response body bytes. Verify it with the service's public key before trusting anything in the answer. Notifications to notifyUrl are signed the same way.",
    ].join("\n"),
  },
} as const

/** The introduction of the description: the envelope, answers, money and encrypted fields. */
export const serviceDescription = (
  notificationSchedule: string,
): string => `Every operation is \`POST\` with a JSON body \`{ "requestTime": <ms since the epoch>, "bizContent": {...} }\`, signed (see the security schemes PartnerId and Signature).

**Answers.** Business and protocol errors answer HTTP 200 with the code in \`head\`: \`applyStatus\` FAIL (or ERROR when the request's signature does not verify), \`code\` and \`msg\`. \`body\` is present only when \`applyStatus\` is SUCCESS and \`code\` is "0". Every operation lists the codes it can answer. \`requestTime\` must be within 15 minutes of the service's time (400 REQUESTTIME_TOO_EARLY / REQUESTTIME_TOO_LATER).

**Schemas** give each field's form and meaning. Request schemas are closed (\`additionalProperties: false\`) so that a generated client catches a misspelt field; the service itself ignores unknown fields, and takes the official SDKs' habits (amounts as decimal text, \`[]\` for an empty object, \`partnerId\` beside requestTime). Rules across fields (exactly one of \`merchantOrderNo\` or \`orderNo\`, at most one sharing item with \`withholdAndRemitFee\`, ...) are checked by the service and answered with 400 INVALID_PARAMETER naming the field.

**Money** is \`{ "amount": <JSON number, at most 12 digits before the point and 2 after>, "currency": "AED" }\` (the Money component). Answers always write amounts as JSON numbers.

**Encrypted fields** (card, bank and identity fields) are RSA PKCS#1 v1.5 encrypted with the service's public key: the UTF-8 text in chunks of key bytes - 11, the ciphertext blocks concatenated and Base64-encoded. Where the interface recommends it (identities, beneficiary names, sharing identities, eid) the 64-character lower-case hex SHA-256 of the value is accepted instead. Answers carry only SHA-256 digests of such values.

**Notifications** (the webhooks) are POSTed to an order's notifyUrl at each status change, signed like answers. ${notificationSchedule}`
