/**
 * A merchant's brand colour on its pay page: the Pay button's background,
 * with text that stays readable whatever colour a merchant picks. Between
 * white and black, one always reaches WCAG's 4.5:1 contrast against any
 * colour, so the text is whichever of the two contrasts more.
 */

/** The colour the page uses when the merchant names none: the service's blue. */
export const defaultBrandColor = "#1b4fa0"

/** `#1b4fa0`: six hex digits, the only form the configuration takes. */
export const isHexColor = (text: string): boolean => /^#[0-9a-fA-F]{6}$/.test(text)

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
const luminance = (hex: string): number => {
  const channel = (offset: number) => {
    const value = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours, 1 to 21. */
export const contrastRatio = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/** White or black, whichever reads better on the brand colour. */
export const textColorOn = (background: string): "#ffffff" | "#000000" =>
  contrastRatio(background, "#ffffff") >= contrastRatio(background, "#000000") ? "#ffffff" : "#000000"
