/**
 * The pay page's frame: one small document with its style inline (no
 * external assets: a payer's browser fetches nothing but the page), and the
 * response headers every pay page carries.
 */
import { createHash } from "node:crypto"
import { documentOf, type Html, html, rawHtml } from "./html.ts"

const style = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; background: #f3f5f7; }
body { margin: 0; padding: 2rem 1rem; }
main { max-width: 28rem; margin: 0 auto; background: #fff; border: 1px solid #d5dbe1; border-radius: 12px; padding: 1.5rem; }
.mode { display: inline-block; margin: 0 0 1rem; padding: .15rem .6rem; border-radius: 999px; background: #fff4d6; color: #5c4300; font-size: .8rem; font-weight: 600; }
h1 { font-size: 1.35rem; margin: 0 0 1rem; }
dl { margin: 0 0 1.25rem; display: grid; grid-template-columns: auto 1fr; gap: .5rem 1rem; }
dt { color: #4a5561; }
dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
.amount { font-size: 1.15rem; }
.notice { margin: 0 0 1.25rem; padding: .75rem 1rem; border-radius: 8px; border-left: 4px solid; }
.ok { background: #e7f6ec; border-color: #1a7f37; }
.bad { background: #fdecec; border-color: #c62828; }
.info { background: #eef3fb; border-color: #2f5fb3; }
.actions { display: flex; gap: .75rem; flex-wrap: wrap; margin: 0 0 1rem; }
.actions form { margin: 0; }
button { font: inherit; font-weight: 600; padding: .65rem 1.2rem; border-radius: 8px; border: 1px solid #1b4fa0; background: #1b4fa0; color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: #a11d1d; border-color: #a11d1d; }
button:focus-visible, a:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
a { color: #1b4fa0; }
.fine { color: #4a5561; font-size: .85rem; margin: 0; }
`

/**
 * Content-Security-Policy: nothing may load (`default-src 'none'`), the one
 * inline style is allowed by its hash, forms post only back to the gateway.
 * Framing stays allowed: PAYPAGE is also an "embedded page" (spec, scene codes).
 */
const contentSecurityPolicy = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(style).digest("base64")}'`,
  "form-action 'self'",
  "base-uri 'none'",
].join("; ")

/**
 * Headers of every pay page. The link carries its token (the capability to
 * pay the order), so it is never sent on as a Referer (the "Return to the
 * merchant" link leads off-site) and never cached.
 */
export const payPageHeaders: Readonly<Record<string, string>> = {
  "content-security-policy": contentSecurityPolicy,
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
}

export interface PageFrame {
  readonly title: string
  readonly mode: "sandbox" | "production"
}

export const pageDocument = (frame: PageFrame, content: Html): string =>
  documentOf(html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${frame.title}</title>
<style>${rawHtml(style)}</style>
</head>
<body>
<main>
${frame.mode === "sandbox" ? html`<p class="mode">Sandbox: no real money moves</p>` : undefined}
${content}
</main>
</body>
</html>`)
