import type { Frame } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../database/database";
import { openDatabase } from "../database/open-database";
import { createStore, type Store } from "../store/store";
import { startTestRun } from "../testing/start-test-run";
import { FrameHub } from "./frame-hub";

let db: Database;
let store: Store;
let hub: FrameHub;

beforeAll(async () => {
  db = await openDatabase({});
  store = await createStore(db);
  hub = new FrameHub(store);
  await hub.start();
});

afterAll(async () => {
  await hub.stop();
  await db.close();
});

const delta = (text: string): Frame => ({ kind: "text-delta", id: "t", delta: text });

describe("FrameHub.recent", () => {
  it("hands followers what this process committed, exactly as the store holds it", async () => {
    const runId = await startTestRun(store, "memory");
    await store.appendFrames(db, runId, [delta("a"), delta("b")]);
    await store.appendFrame(db, runId, delta("c"));
    expect(hub.recent(runId, 0)).toEqual(await store.framesAfter(runId, 0));
    expect(hub.recent(runId, 2)).toEqual(await store.framesAfter(runId, 2));
  });

  it("sends a follower to the store when memory cannot vouch for what follows", async () => {
    const runId = await startTestRun(store, "store");
    // Frames written inside a transaction are announced without their numbers.
    await db.transaction((tx) => store.appendFrames(tx, runId, [delta("a")]));
    store.framesCommitted(runId);
    expect(hub.recent(runId, 0)).toBeUndefined();
    await store.appendFrame(db, runId, delta("b"));
    // Memory starts at 2: a follower at 0 must read 1 from the store.
    expect(hub.recent(runId, 0)).toBeUndefined();
    expect(hub.recent(runId, 1)).toEqual([{ seq: 2, frame: delta("b") }]);
    // Caught up, another process may have written since: read the store, never assume nothing.
    expect(hub.recent(runId, 2)).toBeUndefined();
  });

  it("wakes a waiting follower when frames commit", async () => {
    const runId = await startTestRun(store, "wake");
    // Only a wake resolves this wait before the test's own timeout.
    const waiting = hub.wait(runId, 3_600_000);
    await store.appendFrame(db, runId, delta("a"));
    await waiting;
    expect(hub.recent(runId, 0)).toEqual([{ seq: 1, frame: delta("a") }]);
  });
});
