/**
 * The parts of `docs/api.md` that are the code's own data, written from it:
 * the operations and their fields (from the OpenAPI description the gateway
 * serves, itself compiled from the wire schemas), the encrypted fields, the
 * order objects, the code catalogue, the notification kinds and retry
 * schedule, and the sandbox helpers. `npm run api-doc` writes them into the
 * page; a test fails when the page and the code disagree.
 */
import { codeCatalogue } from "@mizan/kernel"
import { retryScheduleMinutes } from "@mizan/notification"
import { apiBasePath, notificationOrderKeys, operations, sandboxBasePath } from "@mizan/protocol"
import type { JsonSchema } from "effect"
import { sandboxConfigDefault } from "../config/configFile.ts"
import { handlers } from "../handlers/index.ts"
import { orderComponentName } from "../openapi/shared.ts"
import { inlineRefs } from "../openapi/tree.ts"
import { openApiDocument } from "../openapi.ts"
import { sandboxPayer } from "../payerOutcomes.ts"
import { merchantApi } from "../pipeline/pipeline.ts"
import { sandboxApi } from "../sandbox/index.ts"
import { type FieldRow, fieldRows } from "./fields.ts"
import { code, table } from "./markdown.ts"

type Json = JsonSchema.JsonSchema

const document = openApiDocument([merchantApi(handlers), sandboxApi], "http://127.0.0.1:8080")
const components = document.components.schemas as Record<string, Json>
/** A component as one tree: the field tables read money and orders in place, not as references. */
const componentOf = (name: string): Json => inlineRefs(components[name] ?? {}, components)
const orderKeys: ReadonlySet<string> = new Set(notificationOrderKeys)

const fieldTable = (rows: ReadonlyArray<FieldRow>): string =>
  rows.length === 0
    ? "None."
    : table(
        ["field", "form", "required"],
        rows.map((row) => [code(row.path), row.form, row.required ? "yes" : "no"]),
      )

/** The heading anchor GitHub gives an operation's name (`Get order payer` -> `get-order-payer`). */
export const anchorOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, "")
    .replaceAll(" ", "-")

const merchantPaths = Object.keys(operations) as ReadonlyArray<keyof typeof operations>

const operationTable = (): string =>
  table(
    ["operation", "path", "encrypted fields"],
    merchantPaths.map((path) => [
      `[${operations[path].name}](#${anchorOf(operations[path].name)})`,
      code(`POST ${apiBasePath}${path}`),
      Object.keys(operations[path].sensitive).map(code).join(", ") || "none",
    ]),
  )

const operationFields = (): string =>
  merchantPaths
    .map((path) => {
      const id = `api${path.replaceAll("/", ".")}`
      const request = componentOf(`${id}.bizContent`)
      const takesNone = request.properties === undefined
      return [
        `### ${operations[path].name}`,
        "",
        `${code(`POST ${apiBasePath}${path}`)}.`,
        "",
        takesNone ? "bizContent: none (absent, `null` or `{}`)." : "bizContent:",
        ...(takesNone ? [] : ["", fieldTable(fieldRows(request, orderKeys))]),
        "",
        "body:",
        "",
        fieldTable(fieldRows(componentOf(`${id}.body`), orderKeys)),
      ].join("\n")
    })
    .join("\n\n")

const encryptedFields = (): string =>
  table(
    ["operation", "field", "clear value, at most", "SHA-256 hex accepted instead"],
    merchantPaths.flatMap((path) =>
      Object.entries(operations[path].sensitive).map(([field, rule]) => [
        code(path),
        code(field),
        `${rule.clearMaxChars} characters`,
        rule.digestAccepted ? "yes" : "no",
      ]),
    ),
  )

/**
 * The orders as answers carry them: the description's components, which
 * add what the wire schema leaves open (the closed sets a merchant may
 * switch on) and write amounts as the numbers the service sends.
 */
const orderObjects = (): string =>
  notificationOrderKeys
    .map((key) => [`### ${key}`, "", fieldTable(fieldRows(componentOf(orderComponentName(key))))].join("\n"))
    .join("\n\n")

const codeTable = (): string =>
  table(
    ["head.code", "message name", "meaning", "what to do"],
    Object.values(codeCatalogue).map((entry) => [
      code(entry.code),
      code(entry.message),
      entry.meaning,
      "workaround" in entry ? entry.workaround : "",
    ]),
  )

const notificationKinds = (): string =>
  table(
    ["order key", "the order, as"],
    notificationOrderKeys.map((key) => [code(key), `[${key}](#${key.toLowerCase()})`]),
  )

const retrySchedule = (): string => {
  let minutesAfterFirst = 0
  const dueMinutes = [0, ...retryScheduleMinutes.map((minutes) => (minutesAfterFirst += minutes))]
  return table(
    ["attempt", "minutes after the previous", "minutes after the first"],
    dueMinutes.map((total, i) => [String(i + 1), i === 0 ? "" : String(retryScheduleMinutes[i - 1]), String(total)]),
  )
}

const sandboxHelpers = (): string =>
  table(
    ["helper", "bizContent"],
    Object.keys(sandboxApi.operations).map((path) => {
      const request = componentOf(`sandbox${path.replaceAll("/", ".")}.bizContent`)
      const fields = fieldRows(request).filter((row) => !row.path.includes("."))
      return [
        code(`POST ${sandboxBasePath}${path}`),
        fields.map((row) => `${code(row.path)}${row.required ? "" : "?"}`).join(", ") || "none",
      ]
    }),
  )

/** Who a fresh sandbox knows (the configuration `npm start` first writes), and who pays when `payOrder` names no payer. */
const sandboxData = (): string => {
  const { members = [], ibanHolders = {} } = sandboxConfigDefault.sandbox ?? {}
  return [
    table(
      ["wallet member", "`memberId`", "`phoneNo`", "opening balance"],
      members.map((member) => [
        member.fullName,
        code(member.memberId),
        code(member.phoneNo),
        `AED ${member.openingBalance}`,
      ]),
    ),
    table(
      ["IBAN", "holder name"],
      Object.entries(ibanHolders).map(([iban, holder]) => [code(iban), holder]),
    ),
    `\`payOrder\` without a \`payerMid\` is paid by ${code(sandboxPayer.payerMid)}.`,
  ].join("\n\n")
}

/** Every generated section of `docs/api.md`, by marker name. */
export const apiDocSections = (): Readonly<Record<string, string>> => ({
  operations: operationTable(),
  "operation-fields": operationFields(),
  "encrypted-fields": encryptedFields(),
  "order-objects": orderObjects(),
  codes: codeTable(),
  "notification-kinds": notificationKinds(),
  "retry-schedule": retrySchedule(),
  sandbox: sandboxHelpers(),
  "sandbox-data": sandboxData(),
})
