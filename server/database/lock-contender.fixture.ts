// A process that races for PGlite folders: for each line `<directory> <startAt>` on stdin it waits
// until the clock reads `startAt` (ms), calls lockDataDir and prints `won` or `lost`, keeping
// what it won until it exits.
import { createInterface } from "node:readline";
import { lockDataDir } from "./data-dir-lock";

for await (const line of createInterface({ input: process.stdin })) {
  const [directory = "", startAt = "0"] = line.split(" ");
  while (Date.now() < Number(startAt)) {
    // Spin rather than sleep: every contender calls at the same millisecond.
  }
  const outcome = await lockDataDir(directory).then(
    () => "won",
    (error: Error) => (/already open in process/.test(error.message) ? "lost" : `error ${error.message}`),
  );
  process.stdout.write(`${outcome}\n`);
}
