export * from "./contract.ts"
export * from "./givenWhenThen.ts"
