import type { Frame } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../database/database";
import { openDatabase } from "../database/open-database";
import { createStore, Store } from "../store/store";
import { startTestRun } from "../testing/start-test-run";
import { RunFeeds } from "./run-feeds";

let db: Database;
let store: Store;
// Another process's view of the same database: its writes reach `feeds` only by NOTIFY.
let elsewhere: Store;
let feeds: RunFeeds;

beforeAll(async () => {
  db = await openDatabase({});
  store = await createStore(db);
  elsewhere = new Store(db);
  feeds = new RunFeeds(store);
  await feeds.start();
});

afterAll(async () => {
  await feeds.stop();
  await db.close();
});

const delta = (text: string): Frame => ({ kind: "text-delta", id: "t", delta: text });
const stop = new AbortController().signal;

describe("RunFeeds", () => {
  it("hands a follower the frames this process writes, numbered, without a read", async () => {
    const runId = await startTestRun(store, "memory", "ada", "me");
    const feed = feeds.subscribe(runId);
    try {
      const woken = feed.wait(3_600_000, stop);
      await store.frames.append(runId, "me", [delta("a"), delta("b")]);
      expect(await woken).toBe("written");
      // Frame 1 (run-start) was written before the subscription: memory cannot say, so read it.
      expect(feed.storedAfter(0)).toBeUndefined();
      expect(feed.storedAfter(1)?.map(({ seq, json }) => [seq, json])).toEqual([
        [2, JSON.stringify(delta("a"))],
        [3, JSON.stringify(delta("b"))],
      ]);
      expect(feed.storedAfter(3)).toEqual([]);
    } finally {
      feed.close();
    }
  });

  it("wakes a follower by the notification when another process writes, and reads nothing from memory", async () => {
    const runId = await startTestRun(store, "notified", "ada", "me");
    const feed = feeds.subscribe(runId);
    try {
      const woken = feed.wait(3_600_000, stop);
      await elsewhere.frames.append(runId, "me", [delta("a")]);
      expect(await woken).toBe("notified");
      expect(feed.storedAfter(1)).toEqual([]);
    } finally {
      feed.close();
    }
  });

  it("ignores notifications for a run this process holds: it writes every frame of it itself", async () => {
    const runId = await startTestRun(store, "held", "ada", "me");
    const release = feeds.hold(runId);
    const feed = feeds.subscribe(runId);
    try {
      let woke = false;
      void feed.wait(3_600_000, stop).then(() => {
        woke = true;
      });
      await elsewhere.frames.append(runId, "me", [delta("a")]);
      await db.query("SELECT 1");
      expect(woke).toBe(false);
    } finally {
      feed.close();
      release();
    }
  });

  it("streams a model call's frames unnumbered, and forgets them once stored frames follow", async () => {
    const runId = await startTestRun(store, "provisional", "ada", "me");
    const release = feeds.hold(runId);
    const feed = feeds.subscribe(runId);
    try {
      const woken = feed.wait(3_600_000, stop);
      feeds.provisional(runId, 1, [{ kind: "step-start", step: 0 }]);
      feeds.provisional(runId, 1, [delta("a")]);
      expect(await woken).toBe("written");
      const provisional = feed.provisional();
      expect(provisional?.after).toBe(1);
      expect(provisional?.frames.map(({ seq, frame, json }) => ({ seq, frame, json }))).toEqual([
        { seq: undefined, frame: { kind: "step-start", step: 0 }, json: '{"kind":"step-start","step":0}' },
        { seq: undefined, frame: delta("a"), json: JSON.stringify(delta("a")) },
      ]);
      await store.frames.append(runId, "me", [{ kind: "step-start", step: 0 }, delta("a")]);
      expect(feed.provisional()).toBeUndefined();
    } finally {
      feed.close();
      release();
    }
  });
});
