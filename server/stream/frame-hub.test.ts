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

describe("FrameHub", () => {
  it("wakes a waiting follower when frames commit, through the same notification every process hears", async () => {
    const runId = await startTestRun(store, "wake", "ada", "me");
    // Only a wake resolves this wait before the test's own timeout.
    const waiting = hub.wait(runId, 3_600_000);
    await store.frames.append(runId, "me", [delta("a")]);
    await waiting;
    // The run's start wrote frame 1.
    expect(await store.frames.after(runId, 1)).toEqual([{ seq: 2, frame: delta("a") }]);
  });

  it("wakes nobody for a run that got no frames", async () => {
    const woken = await startTestRun(store, "woken", "ada", "me");
    const quiet = await startTestRun(store, "quiet", "ada", "me");
    let quietWoke = false;
    void hub.wait(quiet, 3_600_000).then(() => {
      quietWoke = true;
    });
    const waiting = hub.wait(woken, 3_600_000);
    await store.frames.append(woken, "me", [delta("a")]);
    await waiting;
    expect(quietWoke).toBe(false);
    hub.wake(quiet);
  });
});
