import { inProcessExclusiveWork } from "../src/index.ts"
import { exclusiveWorkContract } from "../src/testing/index.ts"

exclusiveWorkContract("in process", () => {
  const work = inProcessExclusiveWork()
  return [work, work]
})
