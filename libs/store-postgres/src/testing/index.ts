export * from "./embeddedPostgres.ts"
