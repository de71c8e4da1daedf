export * from "./flows.ts"
export * from "./orderIndex.ts"
