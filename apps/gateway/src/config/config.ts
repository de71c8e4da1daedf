/**
 * The gateway's configuration file (JSON; `MIZAN_CONFIG`, default
 * `data/config.json`). Documented field by field in apps/gateway/CONFIGURATION.md.
 * Everything a decision needs from configuration (fee plans, payout
 * abilities, rates) is read here once and handed to the domain on commands.
 */
import { BankCardTransfer } from "@mizan/card-transfer"
import { acceptRenamedKeys, FeePlan, issueMessage } from "@mizan/kernel"
import { isOperationPath } from "@mizan/protocol"
import { logFormats, logLevels } from "@mizan/telemetry"
import { CurrencyCode, PayoutAbility } from "@mizan/transfer"
import { Result, Schema } from "effect"
import { isHexColor } from "../payPage/brand.ts"

const PositiveInt = Schema.Int.check(Schema.isGreaterThan(0, { message: "must be a whole number above 0" }))

export const RateLimitConfig = Schema.Struct({
  requestsPerSecond: Schema.Number.check(Schema.isGreaterThan(0, { message: "must be above 0" })),
  burstRequests: PositiveInt,
})

export const FeesConfig = Schema.Struct({
  /** Charged to the payee on each paid acquiring order. */
  acquiring: Schema.optionalKey(FeePlan),
  /** Charged to the payer of a wallet transfer. */
  walletTransfer: Schema.optionalKey(FeePlan),
  bankCardTransfer: Schema.optionalKey(FeePlan),
})

const { feePlan: _, ...payoutAbilityFields } = PayoutAbility.fields

/**
 * A payout method (the spec's payout ability item) with the fee plan of its
 * network (none when absent): the domain's own fields, so that a currency
 * this service cannot pay out in is refused here, at start, and never
 * reaches a calculation.
 */
export const PayoutAbilityConfig = Schema.Struct({ ...payoutAbilityFields, feePlan: Schema.optionalKey(FeePlan) })

/** Whether `text` is an absolute http(s) URL. */
export const isHttpUrl = (text: string): boolean => {
  try {
    const url = new URL(text)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

/** An absolute http(s) URL: where payers are sent, or where the service posts. */
const HttpUrl = Schema.String.check(
  Schema.makeFilter(isHttpUrl, { message: "must be an absolute http:// or https:// URL" }),
)

/** An absolute https URL: what a pay page may load (a merchant's logo), so that a payer's browser never fetches in clear. */
const HttpsUrl = HttpUrl.check(
  Schema.makeFilter((text: string) => text.startsWith("https://"), { message: "must be an https:// URL" }),
)

/** A brand colour as six hex digits (`#1b4fa0`); the pay page picks readable text for it. */
const HexColor = Schema.String.check(
  Schema.makeFilter((text: string) => isHexColor(text), {
    message: 'must be a colour as six hex digits, like "#1b4fa0"',
  }),
)

/** Grants every operation. */
export const grantAll = "*"

/** An operation the merchant may call, by its path, or every one: a misspelt path would grant nothing, unseen. */
const Grant = Schema.String.check(
  Schema.makeFilter((grant: string) => grant === grantAll || isOperationPath(grant), {
    message: 'must be "*" or an operation path of the merchant API, such as /acquire2/placeOrder',
  }),
)

/** The products a merchant can be given, by the domain's own names. */
export const productNames: ReadonlyArray<string> = [BankCardTransfer.bankCardTransferProduct]

const Product = Schema.String.check(
  Schema.makeFilter((product: string) => productNames.includes(product), {
    message: `must be one of ${productNames.join(", ")}`,
  }),
)

export const MerchantConfig = Schema.Struct({
  /** The Partner-Id header: at most 12 characters. */
  partnerId: Schema.String.check(Schema.isBetweenLength(1, 12, { message: "must be 1 to 12 characters" })),
  /** Shown first on its pay pages (its Partner-Id when absent). */
  name: Schema.optionalKey(Schema.String),
  /** Its logo beside its name on its pay pages: an https image. */
  logoUrl: Schema.optionalKey(HttpsUrl),
  /** The Pay button's colour on its pay pages. */
  brandColor: Schema.optionalKey(HexColor),
  /** The merchant's RSA public key, as SPKI PEM text or a file path relative to the config file. */
  publicKeyPem: Schema.optionalKey(Schema.String),
  publicKeyFile: Schema.optionalKey(Schema.String),
  /** Operation paths (`/acquire2/placeOrder`) this merchant may call; `*` grants all. */
  grants: Schema.Array(Grant),
  rateLimit: Schema.optionalKey(RateLimitConfig),
  fees: Schema.optionalKey(FeesConfig),
  payoutAbilities: Schema.optionalKey(Schema.Array(PayoutAbilityConfig)),
  /** Products enabled for the merchant: TRANSFER_TO_BANK_CARD for bank card payouts (62026 PRODUCT_IS_NOT_APPLIED otherwise). */
  products: Schema.optionalKey(Schema.Array(Product)),
  /**
   * The merchant's registered devices (terminals). When listed, a refund naming
   * another deviceId answers 62036 MERCHANT_DEVICE_NOT_EXIST; when absent, any is taken.
   */
  devices: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Where virtual-account top-ups are announced. */
  vamNotifyUrl: Schema.optionalKey(HttpUrl),
  /** The fee-paying member id reported on bank card transfers. */
  memberId: Schema.optionalKey(Schema.String),
})
export type MerchantConfig = typeof MerchantConfig.Type

export const RateConfig = Schema.Struct({
  fundoutCurrencyCode: CurrencyCode,
  /** AED to the receiving currency, as exact decimal text ("0.2722"). */
  rate: Schema.String.check(
    Schema.isPattern(/^[0-9]{1,9}(\.[0-9]{1,12})?$/, { message: 'must be decimal text like "3.6725"' }),
  ),
})

/**
 * How long a payout network usually takes, in minutes, by its networkCode: a
 * bank transfer expects its money this long after its placement, and answers
 * that as paymentInfo.arrivalTime until the bank reports when it arrived.
 * LOCAL (the UAE's UAEFTS) credits within the hour on a business day; SWIFT
 * reaches most banks within one to two days, so two days rarely promises too
 * early. The configuration's own entries take the place of these, network by
 * network.
 */
export const bankTransferArrivalMinutesDefault: Readonly<Record<string, number>> = { LOCAL: 60, SWIFT: 2_880 }

/** A month: an estimate further out says nothing a merchant can plan with, and is likelier a slip of the keyboard. */
export const bankTransferArrivalMaxMinutes = 44_640

const arrivalMinutesRule = `must be a whole number of minutes from 0 to ${bankTransferArrivalMaxMinutes} (a month)`
const ArrivalMinutes = Schema.Number.annotate({ message: arrivalMinutesRule }).check(
  Schema.makeFilter(
    (minutes: number) => Number.isInteger(minutes) && minutes >= 0 && minutes <= bankTransferArrivalMaxMinutes,
    { message: arrivalMinutesRule },
  ),
)

/** A wallet member of the sandbox, in clear here (configuration); only digests reach the store. */
export const SandboxMemberConfig = Schema.Struct({
  memberId: Schema.String,
  phoneNo: Schema.String,
  fullName: Schema.String,
  /** Opening balance, decimal AED text ("1500.00"). */
  openingBalance: Schema.String,
})

export const SandboxConfig = Schema.Struct({
  members: Schema.optionalKey(Schema.Array(SandboxMemberConfig)),
  /** Holder names by IBAN (electronic format), for the IBAN holder-name query. */
  ibanHolders: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
})

/**
 * The work a process does: `api` serves the merchant API, the sandbox and the
 * pay page; `notifier` delivers notifications; `expiry` closes orders past
 * their expiredTime. `npm start` runs all three; at scale, N processes with
 * `api` and `expiry` share one PostgreSQL with one `notifier`.
 */
export const roleNames = ["api", "notifier", "expiry"] as const
export type Role = (typeof roleNames)[number]
export const Roles = Schema.Array(
  Schema.Literals(roleNames).annotate({ message: `must be one of ${roleNames.join(", ")}` }),
).check(
  Schema.makeFilter((roles: ReadonlyArray<string>) => roles.length > 0, { message: "must name at least one role" }),
)

export const LoggingConfig = Schema.Struct({
  format: Schema.optionalKey(
    Schema.Literals(logFormats).annotate({ message: `must be one of ${logFormats.join(", ")}` }),
  ),
  level: Schema.optionalKey(Schema.Literals(logLevels).annotate({ message: `must be one of ${logLevels.join(", ")}` })),
})

/** What the pay page's trust footer says: the service's name, and where its terms and privacy notice are. */
export const PayPageConfig = Schema.Struct({
  serviceName: Schema.optionalKey(
    Schema.String.check(Schema.isBetweenLength(1, 60, { message: "must be 1 to 60 characters" })),
  ),
  termsUrl: Schema.optionalKey(HttpUrl),
  privacyUrl: Schema.optionalKey(HttpUrl),
})

export const GatewayConfig = Schema.Struct({
  /** `sandbox` turns on the sandbox API, the pay page's test outcomes and the test clock. */
  mode: Schema.Literals(["sandbox", "production"]),
  host: Schema.optionalKey(Schema.String),
  port: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 65535 }))),
  /** The address merchants and payers reach this gateway at; links in responses start with it. */
  publicBaseUrl: Schema.optionalKey(HttpUrl),
  /** `sqlite:PATH` (default `sqlite:mizan.db` beside this file), `postgres://...` or `kurrentdb://...`. */
  store: Schema.optionalKey(Schema.String),
  /** The service's key pair, PEM files; generated on first start in sandbox mode. */
  serviceKeys: Schema.optionalKey(Schema.Struct({ privateKeyFile: Schema.String, publicKeyFile: Schema.String })),
  /**
   * The master keys that wrap the data keys of sealed personal data (default
   * `master-keys.json` beside this file); made on first start in sandbox
   * mode, required in production. Keep it out of the store's backups.
   */
  masterKeyFile: Schema.optionalKey(Schema.String),
  /**
   * How long a process keeps an unwrapped data key (default 30): a forget
   * made by another process (the audit's) reaches this one within it.
   */
  keyCacheSeconds: Schema.optionalKey(PositiveInt),
  requestTimeWindowMinutes: Schema.optionalKey(PositiveInt),
  bodyLimitBytes: Schema.optionalKey(PositiveInt),
  defaultRateLimit: Schema.optionalKey(RateLimitConfig),
  merchants: Schema.Array(MerchantConfig),
  rates: Schema.optionalKey(Schema.Array(RateConfig)),
  /** Minutes a bank transfer's money takes to arrive, by networkCode, over `bankTransferArrivalMinutesDefault`. */
  bankTransferArrivalMinutes: Schema.optionalKey(Schema.Record(Schema.String, ArrivalMinutes)),
  /** The sandbox's stand-ins for the outside world. */
  sandbox: Schema.optionalKey(SandboxConfig),
  /** What this process runs (default all three): see `roleNames`. */
  roles: Schema.optionalKey(Roles),
  /** The log: `format` json (default; pretty at a terminal) or pretty, `level` debug, info (default), warn or error. */
  logging: Schema.optionalKey(LoggingConfig),
  /** The pay page's footer: see `PayPageConfig`. */
  payPage: Schema.optionalKey(PayPageConfig),
  /** Readiness: `/ready` fails while the notifier is more than this many seconds behind the log (default 30). */
  readyNotifierMaxLagSeconds: Schema.optionalKey(PositiveInt),
})
export type GatewayConfig = typeof GatewayConfig.Type

/** Limits the spec gives (Limits: requestTime within 15 minutes either way). */
export const requestTimeWindowMinutesDefault = 15
/** Envelopes are small; a megabyte is far above any operation's largest legal body. */
export const bodyLimitBytesDefault = 1_048_576
export const rateLimitDefault = { requestsPerSecond: 50, burstRequests: 100 } as const

/**
 * Keys renamed so that a bound says its unit last, still read under their old
 * names with a warning: a configuration written before the rename still starts.
 */
export const renamedConfigKeys = { readyNotifierLagSecondsMax: "readyNotifierMaxLagSeconds" } as const

/** A renamed key's warning goes to the process's warnings (stderr), where an operator starting the service reads it. */
const warnDeprecated = (warning: string): void => {
  process.emitWarning(warning, "DeprecationWarning")
}

export class ConfigError extends Error {
  override readonly name = "ConfigError"
}

/** The arrival delays in force: the defaults, each network the configuration names in its place. */
export const bankTransferArrivalMinutesOf = (config: GatewayConfig): Readonly<Record<string, number>> => ({
  ...bankTransferArrivalMinutesDefault,
  ...config.bankTransferArrivalMinutes,
})

/**
 * Each network a merchant pays out through has an arrival delay, and each
 * delay the configuration names is of such a network or a default's: a
 * misspelt `SWFT` would otherwise leave SWIFT's default in force unseen.
 */
const checkArrivalMinutes = (config: GatewayConfig) => {
  const delays = bankTransferArrivalMinutesOf(config)
  const networks = new Set(Object.keys(bankTransferArrivalMinutesDefault))
  for (const merchant of config.merchants)
    for (const ability of merchant.payoutAbilities ?? []) {
      networks.add(ability.networkCode)
      if (!Object.hasOwn(delays, ability.networkCode))
        throw new ConfigError(
          `configuration: merchant ${merchant.partnerId} pays out through networkCode ${ability.networkCode}, which bankTransferArrivalMinutes gives no delay: add "${ability.networkCode}": <minutes>`,
        )
    }
  for (const network of Object.keys(config.bankTransferArrivalMinutes ?? {}))
    if (!networks.has(network))
      throw new ConfigError(
        `configuration: bankTransferArrivalMinutes.${network} is no network a merchant pays out through nor a default's (${[...networks].join(", ")})`,
      )
}

/**
 * Decodes a configuration, with errors that name the field. A key the
 * configuration does not know is refused, not ignored: a misspelt
 * `bodyLimitByte` would otherwise leave the default in force unseen. A key
 * of `renamedConfigKeys` is read under its new name, with a warning.
 */
export const decodeConfig = (json: unknown, warn: (warning: string) => void = warnDeprecated): GatewayConfig => {
  const renamed = acceptRenamedKeys(json, renamedConfigKeys)
  for (const warning of renamed.warnings) warn(`configuration: ${warning}`)
  const result = Schema.decodeUnknownResult(GatewayConfig)(renamed.value, { onExcessProperty: "error" })
  if (Result.isFailure(result)) throw new ConfigError(`configuration: ${issueMessage(result.failure.issue)}`)
  const config = result.success
  const seen = new Set<string>()
  for (const merchant of config.merchants) {
    if (seen.has(merchant.partnerId))
      throw new ConfigError(`configuration: merchant ${merchant.partnerId} is listed twice`)
    seen.add(merchant.partnerId)
    if ((merchant.publicKeyPem === undefined) === (merchant.publicKeyFile === undefined))
      throw new ConfigError(
        `configuration: merchant ${merchant.partnerId} needs exactly one of publicKeyPem or publicKeyFile`,
      )
  }
  checkArrivalMinutes(config)
  return config
}
