export * from "./budget.ts"
export * from "./contract.ts"
export * from "./givenWhenThen.ts"
export * from "./runCommands.ts"
