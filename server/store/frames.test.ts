import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Frame } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededPgliteFolder } from "../../tests/support/pglite-folder";
import type { Database } from "../database/database";
import { openDatabase } from "../database/open-database";
import { startTestRun } from "../testing/start-test-run";
import { FRAMES_CHANNEL } from "./channels";
import { createStore, type Store } from "./store";

let folder: string;
let db: Database;
let store: Store;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "prepick-frames-"));
  db = await openDatabase({ dataDir: await seededPgliteFolder(join(folder, "store")) });
  store = await createStore(db);
});

afterAll(async () => {
  await db.close();
  rmSync(folder, { recursive: true, force: true });
});

const deltas = (id: string, count: number): Frame[] =>
  Array.from({ length: count }, (_, index) => ({ kind: "text-delta", id, delta: `d${index}` }));

describe("FrameStore.append", () => {
  it("gives a batch dense sequence numbers after the frames already stored, in order", async () => {
    const runId = await startTestRun(store, "dense", "ada", "me");
    await store.frames.append(runId, "me", [{ kind: "step-start", step: 0 }]);
    const batch: Frame[] = [
      { kind: "text-start", id: "0-t" },
      ...deltas("0-t", 5),
      { kind: "text-end", id: "0-t" },
    ];
    const last = await store.frames.append(runId, "me", batch);
    const stored = await store.frames.after(runId, 0);
    expect(stored.map(({ seq }) => seq)).toEqual(stored.map((_, index) => index + 1));
    expect(last).toBe(stored.length);
    expect(stored.slice(2).map(({ frame }) => frame)).toEqual(batch);
  });

  it("notifies once per batch, in the statement that writes it", async () => {
    const runId = await startTestRun(store, "notify", "ada", "me");
    const heard: string[] = [];
    const unlisten = await db.listen(FRAMES_CHANNEL, (payload) => heard.push(payload));
    try {
      const last = await store.frames.append(runId, "me", deltas("0-t", 8));
      await db.query("SELECT 1");
      expect(heard).toEqual([`${runId} ${last}`]);
    } finally {
      await unlisten();
    }
  });

  it("writes nothing for an empty batch", async () => {
    const runId = await startTestRun(store, "empty", "ada", "me");
    expect(await store.frames.append(runId, "me", [])).toBeUndefined();
    // The run's start wrote its first frame.
    expect((await store.frames.after(runId, 0)).map(({ frame }) => frame.kind)).toEqual(["run-start"]);
  });
});
