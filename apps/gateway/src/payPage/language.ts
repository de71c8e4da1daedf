/**
 * The pay page's languages: English and Arabic (right to left). The payer's
 * browser says which it prefers (`Accept-Language`); the page's switch link
 * (`?lang=ar`, `?lang=en`) overrides it, and forms carry the choice on.
 */
export const languages = ["en", "ar"] as const
export type Language = (typeof languages)[number]

const isLanguage = (tag: string): tag is Language => (languages as ReadonlyArray<string>).includes(tag)

/** The best of our languages in an Accept-Language header (`ar-AE,ar;q=0.9,en;q=0.8`); English when none fits. */
export const preferredLanguage = (acceptLanguage: string | undefined): Language => {
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...parameters] = part.trim().split(";")
      const q = parameters.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined)
      return { primary: tag.trim().toLowerCase().split("-")[0] ?? "", q: q === undefined ? 1 : Number(q), index }
    })
    .filter((choice) => choice.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  return ranked.map((choice) => choice.primary).find(isLanguage) ?? "en"
}

export interface LanguageChoice {
  readonly language: Language
  /** Whether the payer chose it with the switch link (so links and forms keep `?lang=`). */
  readonly chosen: boolean
}

/** The page's language: `?lang=` when it names one of ours, else the browser's preference. */
export const languageOf = (query: URLSearchParams, acceptLanguage: string | undefined): LanguageChoice => {
  const asked = query.get("lang") ?? ""
  return isLanguage(asked)
    ? { language: asked, chosen: true }
    : { language: preferredLanguage(acceptLanguage), chosen: false }
}

/** The query that keeps an explicit choice on a link or a form's action: `?lang=ar`, or nothing. */
export const languageQuery = (choice: LanguageChoice): string => (choice.chosen ? `?lang=${choice.language}` : "")

export const directionOf = (language: Language): "ltr" | "rtl" => (language === "ar" ? "rtl" : "ltr")
