import type { Question } from "prepick/core";
import type { Database } from "../database/database";
import { openDatabase } from "../database/open-database";
import { createStore, type Store } from "../store/store";
import { startTestRun } from "./start-test-run";

/** The question an editable `purge_cache` call asks of its `cache` field, proposed `images`. */
export const cacheQuestion: Question = {
  id: "cache",
  prompt: "Which cache?",
  options: [
    { value: "images", label: "Images" },
    { value: "pages", label: "Pages" },
  ],
  defaults: ["images"],
};

/** A pending call to make, with its run, straight in the store. */
export interface WaitingCallOptions {
  /** Names the run (`run-<name>`), its thread and the call (`call-<name>`). */
  name: string;
  /** Who owns the thread (default `ada`). */
  actorId?: string;
  /** The tool's name (default `ask`, a question set). */
  tool?: string;
  /** The call's input (default an empty question set). */
  input?: unknown;
  /** An editable approval's questions. */
  questions?: Question[];
  /** Where the run is: parked on this call (default), running under another lease, or ready. */
  runStatus?: "parked" | "running" | "ready";
}

/**
 * A run whose journal holds its start and one checkpoint (`intake:ask`, with a `text-delta`
 * frame) that wrote a pending call, left as `runStatus` says: the state a person settles from.
 */
export async function waitingCall(
  store: Store,
  options: WaitingCallOptions,
): Promise<{ runId: string; callId: string }> {
  const { name, actorId = "ada", tool = "ask", input = { questions: [] }, runStatus = "parked" } = options;
  const runId = await startTestRun(store, name, actorId, "worker");
  const callId = `call-${name}`;
  await store.checkpoints.record(
    runId,
    "worker",
    [{ position: 1, name: "intake:ask", result: { asked: true } }],
    {
      newCalls: [
        {
          id: callId,
          threadId: `thread-${name}`,
          actorId,
          name: tool,
          status: "pending_approval",
          input,
          ...(options.questions ? { questions: options.questions } : {}),
        },
      ],
      frames: [{ kind: "text-delta", id: "t", delta: "asked" }],
    },
  );
  await store.db.query(
    "UPDATE prepick_runs SET status = $2, lease_owner = $3, waiting_on = $4 WHERE id = $1",
    [runId, runStatus, runStatus === "running" ? "other" : null, runStatus === "parked" ? callId : null],
  );
  return { runId, callId };
}

/** A migrated store on PGlite in memory: what a test file opens once, before all its tests. */
export async function openMemoryStore(): Promise<{ db: Database; store: Store }> {
  const db = await openDatabase({});
  return { db, store: await createStore(db) };
}
