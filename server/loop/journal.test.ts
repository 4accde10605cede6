import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../database/database";
import type { Store } from "../store/store";
import { startTestRun } from "../testing/start-test-run";
import { openMemoryStore } from "../testing/waiting-call";
import type { CrashHooks } from "./crash-hooks";
import { Journal, JournalMismatchError, LostRunError } from "./journal";

// The checkpoint journal as the loop uses it, on one store for the whole file.

let db: Database;
let store: Store;

beforeAll(async () => {
  ({ db, store } = await openMemoryStore());
});
afterAll(() => db.close());

const OWNER = "here";

function recordingHooks(): CrashHooks & { seen: string[] } {
  const seen: string[] = [];
  return { seen, before: (name) => seen.push(`before ${name}`), after: (name) => seen.push(`after ${name}`) };
}

/** A run held here, and a journal over what it has recorded, as a claim would make it. */
async function journalOf(
  name: string,
  hooks: CrashHooks = recordingHooks(),
  options: { cancelRequested?: boolean; lastSeq?: number } = {},
) {
  const runId = name.startsWith("run-") ? name : await startTestRun(store, name, "ada", OWNER);
  const run = { id: runId, cancelRequested: options.cancelRequested ?? false };
  const journal = new Journal(
    store,
    run,
    OWNER,
    await store.checkpoints.list(runId),
    hooks,
    options.lastSeq ?? 1,
  );
  return { runId, journal };
}

const names = async (runId: string) => (await store.checkpoints.list(runId)).map((entry) => entry.name);
const refuse = async (): Promise<never> => {
  throw new Error("a replayed step's work ran again");
};

describe("Journal", () => {
  it("replays what a run recorded, in order, without doing the work again", async () => {
    const { runId, journal } = await journalOf("replayed");
    const recorded = await store.checkpoints.list(runId);
    expect(journal.replaying).toBe(true);
    expect(await journal.step("persist:run:start", refuse)).toEqual(recorded[0]?.result);
    expect(journal.replaying).toBe(false);
    expect(journal.recordedHere).toBe(false);
  });

  it("records a new step with the frames it wrote in one statement, which a later journal replays", async () => {
    const hooks = recordingHooks();
    const { runId, journal } = await journalOf("recorded", hooks);
    await journal.step("persist:run:start", refuse);
    const result = await journal.step(
      "tool:one",
      async () => ({ done: 1 }),
      (done) => ({ frames: [{ kind: "text-delta", id: "t", delta: `done ${done.done}` }] }),
    );
    expect(result).toEqual({ done: 1 });
    expect(journal.recordedHere).toBe(true);
    expect(journal.replaying).toBe(false);
    expect(hooks.seen).toEqual(["before tool:one", "after tool:one"]);
    expect(await store.checkpoints.list(runId)).toEqual([
      expect.objectContaining({ position: 0, name: "persist:run:start" }),
      { position: 1, name: "tool:one", result: { done: 1 } },
    ]);
    const frames = await store.frames.after(runId, 0);
    expect(frames.map(({ frame }) => frame)).toEqual([
      expect.objectContaining({ kind: "run-start" }),
      { kind: "text-delta", id: "t", delta: "done 1" },
    ]);
    expect(journal.lastSeq).toBe(frames.at(-1)?.seq);
    expect(journal.recorded().map((entry) => entry.name)).toEqual(["persist:run:start", "tool:one"]);

    const again = (await journalOf(runId)).journal;
    await again.step("persist:run:start", refuse);
    expect(again.replaying).toBe(true);
    expect(await again.step("tool:one", refuse)).toEqual({ done: 1 });
    expect(again.replaying).toBe(false);
  });

  it("goes on with the result as the journal gives it back, unless it is plain data as built", async () => {
    const { runId, journal } = await journalOf("shaped");
    await journal.step("persist:run:start", refuse);
    const built = { bb: 1, a: 2, gone: undefined };
    const read = await journal.step("tool:read", async () => built);
    // jsonb's order (shorter keys first) and no undefined: what a replay will read.
    expect(read).not.toBe(built);
    expect(Object.entries(read)).toEqual([
      ["a", 2],
      ["bb", 1],
    ]);
    const plain = { a: 2, bb: 1 };
    expect(await journal.step("tool:plain", async () => plain, undefined, { plain: true })).toBe(plain);
    expect(await journal.step("tool:nothing", async () => undefined)).toBeNull();
    const stored = await store.checkpoints.list(runId);
    expect(stored.slice(1)).toEqual([
      { position: 1, name: "tool:read", result: { a: 2, bb: 1 } },
      { position: 2, name: "tool:plain", result: { a: 2, bb: 1 } },
      { position: 3, name: "tool:nothing", result: null },
    ]);
  });

  it("stops a run whose code reaches a different checkpoint than the one recorded there", async () => {
    const { journal } = await journalOf("mismatched");
    const mismatch = journal.step("tool:other", refuse);
    await expect(mismatch).rejects.toThrow(JournalMismatchError);
    await expect(mismatch).rejects.toThrow(
      'The run\'s journal does not match its code: position 0 recorded "persist:run:start" but the turn ' +
        'reached "tool:other". The agent\'s definition changed while the run was in flight; the run stops ' +
        "rather than redo or skip recorded work.",
    );
    await expect(mismatch).rejects.toMatchObject({ name: "JournalMismatchError" });
  });

  it("peeks at the next recorded result only under its name, without moving past it", async () => {
    const { runId, journal } = await journalOf("peeked");
    const recorded = await store.checkpoints.list(runId);
    expect(journal.peek("tool:other")).toBeUndefined();
    expect(journal.peek("persist:run:start")).toEqual(recorded[0]?.result);
    expect(journal.replaying).toBe(true);
    await journal.step("persist:run:start", refuse);
    expect(journal.peek("persist:run:start")).toBeUndefined();
  });

  it("records a derived checkpoint in the next step's statement, and replays it after", async () => {
    const hooks = recordingHooks();
    const { runId, journal } = await journalOf("derived", hooks);
    await journal.step("persist:run:start", refuse);
    expect(await journal.derive("derive:one", async () => ({ n: 1 }))).toEqual({ n: 1 });
    expect(await names(runId)).toEqual(["persist:run:start"]);
    expect(journal.recordedHere).toBe(false);
    await journal.step("tool:two", async () => 2);
    expect(await store.checkpoints.list(runId)).toEqual([
      expect.objectContaining({ position: 0 }),
      { position: 1, name: "derive:one", result: { n: 1 } },
      { position: 2, name: "tool:two", result: 2 },
    ]);
    expect(hooks.seen).toEqual([
      "before derive:one",
      "before tool:two",
      "after derive:one",
      "after tool:two",
    ]);
    // Recorded once: the next step records only itself.
    await journal.step("tool:three", async () => 3);
    expect(await names(runId)).toEqual(["persist:run:start", "derive:one", "tool:two", "tool:three"]);

    const again = (await journalOf(runId)).journal;
    await again.step("persist:run:start", refuse);
    expect(await again.derive("derive:one", refuse)).toEqual({ n: 1 });
    expect(await again.step("tool:two", refuse)).toBe(2);
  });

  it("records nothing once another process took the run over, and says so", async () => {
    const hooks = recordingHooks();
    const { runId, journal } = await journalOf("lost", hooks);
    await journal.step("persist:run:start", refuse);
    await db.query("UPDATE prepick_runs SET lease_owner = 'other' WHERE id = $1", [runId]);
    const lost = journal.step(
      "tool:late",
      async () => 1,
      () => ({ frames: [{ kind: "text-delta", id: "t", delta: "x" }] }),
    );
    await expect(lost).rejects.toThrow(LostRunError);
    await expect(lost).rejects.toThrow(
      `Run ${runId} was taken over by another process before tool:late was recorded here.`,
    );
    await expect(lost).rejects.toMatchObject({ name: "LostRunError" });
    expect(await names(runId)).toEqual(["persist:run:start"]);
    expect((await store.frames.after(runId, 0)).map(({ frame }) => frame.kind)).toEqual(["run-start"]);
    expect(hooks.seen).toEqual(["before tool:late"]);
    expect(journal.recordedHere).toBe(false);
  });

  it("knows of a cancel as of its claim, then as of its latest checkpoint", async () => {
    const asked = (await journalOf("cancel-claimed", recordingHooks(), { cancelRequested: true })).journal;
    expect(asked.cancelRequested).toBe(true);

    const { runId, journal } = await journalOf("cancel-later");
    expect(journal.cancelRequested).toBe(false);
    await journal.step("persist:run:start", refuse);
    await db.query("UPDATE prepick_runs SET cancel_requested = true WHERE id = $1", [runId]);
    // A replayed step makes no statement: still as the claim read it.
    expect(journal.cancelRequested).toBe(false);
    await journal.step("tool:one", async () => 1);
    expect(journal.cancelRequested).toBe(true);
  });

  it("keeps the claim's last frame number until a step writes frames", async () => {
    const { runId, journal } = await journalOf("seq", recordingHooks(), { lastSeq: 1 });
    expect(journal.lastSeq).toBe(1);
    await journal.step("persist:run:start", refuse);
    await journal.step("tool:quiet", async () => 1);
    expect(journal.lastSeq).toBe(1);
    await journal.step(
      "tool:loud",
      async () => 2,
      () => ({
        frames: [
          { kind: "text-delta", id: "t", delta: "a" },
          { kind: "text-delta", id: "t", delta: "b" },
        ],
      }),
    );
    expect(journal.lastSeq).toBe(3);
    expect((await store.frames.after(runId, 0)).at(-1)?.seq).toBe(3);
  });

  it("hands out a copy of what it recorded", async () => {
    const { journal } = await journalOf("copied");
    journal.recorded().pop();
    expect(journal.recorded().map((entry) => entry.name)).toEqual(["persist:run:start"]);
  });
});
