import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Frame } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../database/database";
import { openDatabase } from "../database/open-database";
import { startTestRun } from "../testing/start-test-run";
import { createStore, FRAMES_CHANNEL, type Store } from "./store";

let folder: string;
let db: Database;
let store: Store;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "prepick-frames-"));
  db = await openDatabase({ dataDir: join(folder, "store") });
  store = await createStore(db);
});

afterAll(async () => {
  await db.close();
  rmSync(folder, { recursive: true, force: true });
});

const deltas = (id: string, count: number): Frame[] =>
  Array.from({ length: count }, (_, index) => ({ kind: "text-delta", id, delta: `d${index}` }));

describe("Store.appendFrames", () => {
  it("gives a batch dense sequence numbers after the frames already stored, in order", async () => {
    const runId = await startTestRun(store, "dense");
    await store.appendFrame(db, runId, { kind: "step-start", step: 0 });
    const batch: Frame[] = [
      { kind: "text-start", id: "0-t" },
      ...deltas("0-t", 5),
      { kind: "text-end", id: "0-t" },
    ];
    const last = await store.appendFrames(db, runId, batch);
    const stored = await store.framesAfter(runId, 0);
    expect(stored.map(({ seq }) => seq)).toEqual(stored.map((_, index) => index + 1));
    expect(last).toBe(stored.length);
    expect(stored.slice(1).map(({ frame }) => frame)).toEqual(batch);
  });

  it("notifies once per batch and tells this process's followers when it committed", async () => {
    const runId = await startTestRun(store, "notify");
    const heard: string[] = [];
    const unlisten = await db.listen(FRAMES_CHANNEL, (payload) => heard.push(payload));
    const local: string[] = [];
    const stopLocal = store.onFramesCommitted((id) => local.push(id));
    try {
      await store.appendFrames(db, runId, deltas("0-t", 8));
      await db.query("SELECT 1");
      expect(heard).toEqual([runId]);
      expect(local).toEqual([runId]);
      // Inside a transaction the commit is the caller's to announce: nothing local yet.
      await db.transaction((tx) => store.appendFrames(tx, runId, deltas("0-u", 2)));
      expect(local).toEqual([runId]);
    } finally {
      stopLocal();
      await unlisten();
    }
  });

  it("writes nothing for an empty batch", async () => {
    const runId = await startTestRun(store, "empty");
    expect(await store.appendFrames(db, runId, [])).toBeUndefined();
    expect(await store.framesAfter(runId, 0)).toEqual([]);
  });
});
