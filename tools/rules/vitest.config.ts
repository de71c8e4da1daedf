// The workspace preset: @mizan/* resolve to their sources (vitest.shared.ts).
export { default } from "../../vitest.shared.ts"
