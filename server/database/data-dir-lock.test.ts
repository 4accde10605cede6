import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempFolders, tempFolder } from "../../tests/support/temp-folder";
import { LOCK_FILE } from "./data-dir-lock";

const CONTENDERS = 4;
const TRIALS = 30;

let contenders: { child: ChildProcess; next: () => Promise<string> }[] = [];

function startContender() {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "lock-contender.fixture.ts")],
    {
      stdio: ["pipe", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })[Symbol.asyncIterator]();
  return { child, next: async () => String((await lines.next()).value) };
}

beforeAll(async () => {
  contenders = Array.from({ length: CONTENDERS }, startContender);
  // Each answers a first race (its own folder) once loaded, so the trials time no start-up.
  const warm = tempFolder();
  for (const [index, { child }] of contenders.entries()) {
    mkdirSync(join(warm, String(index)));
    child.stdin?.write(`${join(warm, String(index))} 0\n`);
  }
  for (const { next } of contenders) expect(await next()).toBe("won");
}, 120_000);

afterAll(() => {
  for (const { child } of contenders) child.kill();
  removeTempFolders();
});

describe("a stale PGlite lock", () => {
  it("goes to exactly one of several processes taking it at the same moment, every time", {
    timeout: 120_000,
  }, async () => {
    // A pid that names no process: one that ran and exited.
    const dead = spawnSync("true").pid;
    const root = tempFolder();
    const tally: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const directory = join(root, `trial-${trial}`);
      mkdirSync(directory);
      await writeFile(join(directory, LOCK_FILE), `${dead}\n`);
      const startAt = Date.now() + 150;
      for (const { child } of contenders) child.stdin?.write(`${directory} ${startAt}\n`);
      const outcomes = await Promise.all(contenders.map(({ next }) => next()));
      const winners = outcomes.filter((outcome) => outcome === "won").length;
      tally.push(`${trial}: ${outcomes.join(",")}`);
      expect.soft(winners, tally.at(-1)).toBe(1);
      expect(
        outcomes.every((outcome) => outcome === "won" || outcome === "lost"),
        tally.at(-1),
      ).toBe(true);
      // The lock names the winner.
      const holder = Number.parseInt(readFileSync(join(directory, LOCK_FILE), "utf8"), 10);
      const winner = contenders[outcomes.indexOf("won")]?.child.pid;
      expect.soft(holder, tally.at(-1)).toBe(winner);
    }
  });
});
