/**
 * The pay page's frame: one small document with its style inline (no
 * external assets but a merchant's https logo: a payer's browser fetches
 * nothing else), in the payer's language and direction, with the trust
 * footer; and the response headers every pay page carries.
 *
 * Mobile first: the page is one column at any width, the Pay button spans
 * it and is at least 48 px high (a thumb's target), and nothing is wider
 * than the screen. The style depends on the merchant's brand colour, so the
 * Content-Security-Policy allows exactly this page's style by its hash.
 */
import { createHash } from "node:crypto"
import { defaultBrandColor, textColorOn } from "./brand.ts"
import { copyOf } from "./copy.ts"
import { documentOf, type Html, html, rawHtml } from "./html.ts"
import { directionOf, type LanguageChoice, languages } from "./language.ts"

const style = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans Arabic", Tahoma, sans-serif; color: #1b1f24; background: #f3f5f7; line-height: 1.5; }
* { box-sizing: border-box; }
body { margin: 0; padding: 1rem .75rem; overflow-wrap: anywhere; }
.page { max-width: 30rem; margin: 0 auto; }
main { background: #fff; border: 1px solid #d5dbe1; border-radius: 14px; padding: 1.25rem; }
.mode { display: inline-block; margin: 0 0 1rem; padding: .15rem .6rem; border-radius: 999px; background: #fff4d6; color: #5c4300; font-size: .8rem; font-weight: 600; }
.merchant { display: flex; align-items: center; gap: .75rem; margin: 0 0 1.25rem; }
.merchant img { width: 44px; height: 44px; object-fit: contain; border-radius: 10px; border: 1px solid #d5dbe1; }
.merchant-name { margin: 0; font-size: 1.05rem; font-weight: 700; }
h1 { margin: 0 0 .25rem; font-size: 1rem; font-weight: 600; color: #4a5561; }
.total { margin: 0; font-size: 2.5rem; font-weight: 750; line-height: 1.15; font-variant-numeric: tabular-nums; }
.subject { margin: .35rem 0 1rem; font-size: 1.05rem; }
.deadline { margin: 0 0 1.25rem; color: #4a5561; font-size: .95rem; }
.notice { margin: 0 0 1.25rem; padding: .75rem 1rem; border-radius: 10px; border-inline-start: 4px solid; }
.ok { background: #e7f6ec; border-color: #1a7f37; }
.bad { background: #fdecec; border-color: #c62828; }
.info { background: #eef3fb; border-color: #2f5fb3; }
form { margin: 0; }
.primary { display: block; width: 100%; min-height: 48px; margin: 0 0 1rem; padding: .75rem 1rem; border: 0; border-radius: 10px; background: var(--brand); color: var(--on-brand); font: inherit; font-size: 1.1rem; font-weight: 700; text-align: center; text-decoration: none; cursor: pointer; }
.secondary { display: block; width: 100%; min-height: 48px; padding: .65rem 1rem; border: 2px solid #a11d1d; border-radius: 10px; background: #fff; color: #a11d1d; font: inherit; font-weight: 700; cursor: pointer; }
button:focus-visible, a:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
a { color: #1b4fa0; }
dl { margin: 0 0 1.25rem; display: grid; grid-template-columns: auto 1fr; gap: .4rem 1rem; }
dt { color: #4a5561; }
dd { margin: 0; font-weight: 600; }
.receipt { border-top: 1px dashed #b8c1cb; padding-top: 1rem; }
.fine { margin: 0 0 .5rem; color: #4a5561; font-size: .8rem; }
.next { margin: 0 0 1rem; }
.test-outcomes { margin: 1.5rem 0 0; padding: 1rem; border: 2px dashed #8a6d00; border-radius: 12px; background: #fffaf0; }
.test-outcomes h2 { margin: 0 0 .35rem; font-size: .95rem; color: #5c4300; }
.test-outcomes p { margin: 0 0 .75rem; font-size: .9rem; }
footer { margin: 1.25rem 0 0; text-align: center; color: #4a5561; font-size: .85rem; }
footer p { margin: 0 0 .35rem; }
footer a { margin: 0 .35rem; }
@media (min-width: 48rem) { body { padding: 3rem 1rem; } main { padding: 2rem; } }
`

/** The style with the merchant's colours: the one stylesheet of the page. */
const styleWith = (brandColor: string): string =>
  `${style}:root { --brand: ${brandColor}; --on-brand: ${textColorOn(brandColor)}; }\n`

/**
 * Content-Security-Policy: nothing may load (`default-src 'none'`) but
 * images over https (a merchant's logo), the page's one style is allowed by
 * its hash, forms post only back to the gateway. Framing stays allowed:
 * PAYPAGE is also an "embedded page" (spec, scene codes).
 */
const contentSecurityPolicy = (pageStyle: string, images: boolean) =>
  [
    "default-src 'none'",
    `style-src 'sha256-${createHash("sha256").update(pageStyle).digest("base64")}'`,
    ...(images ? ["img-src https:"] : []),
    "form-action 'self'",
    "base-uri 'none'",
  ].join("; ")

/**
 * Headers of every pay page. The link carries its token (the capability to
 * pay the order), so it is never sent on as a Referer (the "Return to the
 * merchant" link leads off-site) and never cached.
 */
export const payPageHeaders: Readonly<Record<string, string>> = {
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
}

/** What the trust footer says, from the gateway's configuration (`payPage`). */
export interface ServiceFacts {
  readonly serviceName: string
  readonly termsUrl?: string
  readonly privacyUrl?: string
}

export interface PageFrame {
  readonly title: string
  readonly mode: "sandbox" | "production"
  readonly language: LanguageChoice
  readonly service: ServiceFacts
  /** Where this page is read by GET: the language link adds `?lang=` to it (a relative `?lang=` when absent). */
  readonly path?: string
  readonly brandColor?: string
  /** Whether the page shows a merchant's logo (an https image). */
  readonly images?: boolean
}

export interface RenderedPage {
  readonly html: string
  readonly headers: Readonly<Record<string, string>>
}

const footer = (frame: PageFrame) => {
  const copy = copyOf[frame.language.language]
  const other = languages.find((language) => language !== frame.language.language) ?? "en"
  return html`<footer>
<p><strong>${frame.service.serviceName}</strong> · ${copy.securePayment}</p>
<p>${frame.service.termsUrl === undefined ? undefined : html`<a href="${frame.service.termsUrl}">${copy.terms}</a>`}${frame.service.privacyUrl === undefined ? undefined : html`<a href="${frame.service.privacyUrl}">${copy.privacy}</a>`}<a href="${frame.path ?? ""}?lang=${other}" lang="${other}" hreflang="${other}">${copy.otherLanguage}</a></p>
</footer>`
}

export const renderPage = (frame: PageFrame, content: Html): RenderedPage => {
  const pageStyle = styleWith(frame.brandColor ?? defaultBrandColor)
  const { language } = frame.language
  const copy = copyOf[language]
  const page = documentOf(html`<html lang="${language}" dir="${directionOf(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${frame.title}</title>
<style>${rawHtml(pageStyle)}</style>
</head>
<body>
<div class="page">
<main>
${frame.mode === "sandbox" ? html`<p class="mode">${copy.sandboxBadge}</p>` : undefined}
${content}
</main>
${footer(frame)}
</div>
</body>
</html>`)
  return {
    html: page,
    headers: {
      ...payPageHeaders,
      "content-security-policy": contentSecurityPolicy(pageStyle, frame.images === true),
      "content-language": language,
    },
  }
}
