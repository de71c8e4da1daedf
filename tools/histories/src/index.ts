export { SimulatedClock } from "./clock.ts"
export {
  type GeneratedHistory,
  type GenerateError,
  type GenerateOptions,
  generateDefaults,
  generateHistory,
  type StoryKind,
  storyKinds,
} from "./generate.ts"
export { makeRandom, type Random } from "./random.ts"
export { seededUuidV7 } from "./recordingStore.ts"
