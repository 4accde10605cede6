// `npm run mutation:core`: Stryker over src/core, against the core's own tests.
// @ts-check
import { mutationPart } from "./part.mjs";

export default mutationPart({
  name: "core",
  mutate: [
    "src/core/**/*.ts",
    "!src/core/**/*.test.ts",
    "!src/core/**/*.fixture.ts",
    // Example data and the barrel: nothing to decide.
    "!src/core/spec-examples.ts",
    "!src/core/index.ts",
  ],
  concurrency: 1,
  timeoutMS: 20_000,
  target: 90,
});
