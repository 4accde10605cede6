// Entry point of `npm start`: runs the reference server once it exists.
import { existsSync } from "node:fs";

if (!existsSync(new URL("../server/main.ts", import.meta.url))) {
  console.log(
    "Prepick: the reference server is not built yet. Run `npm test` for the question model's tests.",
  );
  process.exit(0);
}
await import("../server/main.ts");
