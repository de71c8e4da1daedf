export * from "./logging.ts"
export * from "./otlp.ts"
