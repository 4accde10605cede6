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

describe("a write's frames, stored as one row", () => {
  const step: Frame[] = [
    { kind: "step-start", step: 0 },
    { kind: "text-start", id: "0-t" },
    ...deltas("0-t", 4),
    { kind: "text-end", id: "0-t" },
    { kind: "step-finish", step: 0 },
    { kind: "run-finish", status: "completed" },
  ];

  it("reads from any number on, inside a write too, in pages that may end inside one", async () => {
    const runId = await startTestRun(store, "pages", "ada", "me");
    await store.frames.append(runId, "me", step.slice(0, 5));
    await store.frames.append(runId, "me", step.slice(5));
    const all = await store.frames.after(runId, 0);
    expect(all.map(({ seq }) => seq)).toEqual(all.map((_, index) => index + 1));
    expect(all.slice(1).map(({ frame }) => frame)).toEqual(step);
    // Every resume point and page size gives the frames after it, whole rows or not.
    for (let after = 0; after <= all.length; after++) {
      expect(await store.frames.after(runId, after)).toEqual(all.slice(after));
      expect(await store.frames.after(runId, after, 3)).toEqual(all.slice(after, after + 3));
      const asJson = await store.frames.afterAsJson(runId, after, 2);
      expect(asJson.map(({ seq, json }) => ({ seq, frame: JSON.parse(json) }))).toEqual(
        all.slice(after, after + 2),
      );
    }
    expect(await store.frames.tail(runId)).toEqual({ lastSeq: all.length, ended: false });
  });

  it("refuses a second write numbered from the same last frame, as a frame a row did", async () => {
    const runId = await startTestRun(store, "race", "ada", "me");
    // What two writers that both read frame 1 as the last would insert: the second row collides.
    const insert = (frames: Frame[]) =>
      db.query(
        `INSERT INTO prepick_frames (run_id, first_seq, last_seq, frames)
         VALUES ($1, 2, 1 + jsonb_array_length($2::jsonb), $2::jsonb)`,
        [runId, JSON.stringify(frames)],
      );
    await insert(step.slice(0, 3));
    await expect(insert(step.slice(0, 1))).rejects.toThrow(/duplicate key|unique/);
    expect((await store.frames.after(runId, 0)).map(({ seq }) => seq)).toEqual([1, 2, 3, 4]);
  });

  it("keeps a pruned run's first frame and its last, the last under its own number", async () => {
    const runId = await startTestRun(store, "pruned", "ada", "me");
    await store.frames.append(runId, "me", [{ kind: "step-start", step: 0 }]);
    const recorded = await store.checkpoints.record(
      runId,
      "me",
      [{ position: 1, name: "model:0", result: { text: "d0d1d2d3" } }],
      { frames: step.slice(1), completes: { modelMessages: [] } },
    );
    await db.query("UPDATE prepick_runs SET finished_at = now() - interval '1 hour' WHERE id = $1", [runId]);
    expect(await store.retention.prune(1_000)).toBeGreaterThanOrEqual(1);
    const left = await store.frames.after(runId, 0);
    expect(left).toEqual([
      { seq: 1, frame: expect.objectContaining({ kind: "run-start" }) },
      { seq: recorded.seq, frame: { kind: "run-finish", status: "completed" } },
    ]);
    expect(await store.frames.after(runId, 1)).toEqual(left.slice(1));
    expect(await store.frames.tail(runId)).toEqual({ lastSeq: recorded.seq, ended: true });
  });
});
