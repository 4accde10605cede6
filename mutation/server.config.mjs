// `npm run mutation:server`: Stryker over the settle and journal code, against the tests that
// drive it in this process.
// @ts-check
import { mutationPart } from "./part.mjs";

export default mutationPart({
  name: "server",
  mutate: [
    "server/loop/settle-call.ts",
    "server/loop/settlement.ts",
    "server/loop/journal.ts",
    "server/store/settlements.ts",
  ],
  // The settle and journal tests wait on PGlite more than they compute.
  concurrency: 2,
  // Beyond its covering tests' own time: a mutant that stalls a test is stopped within seconds.
  timeoutMS: 10_000,
  target: 80,
});
