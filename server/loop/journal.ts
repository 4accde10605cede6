import type { Frame } from "prepick/core";
import type { Queryable } from "../database/database";
import type { CheckpointRow } from "../store/rows";
import type { NewUsage, Store } from "../store/store";
import { crashAfter, crashBefore } from "./crash-hooks";
import { yieldToIo } from "./yield-to-io";

/** The turn reached a different checkpoint than the one recorded at the same position. */
export class JournalMismatchError extends Error {
  constructor(position: number, recorded: string, reached: string) {
    super(
      `The run's journal does not match its code: position ${position} recorded "${recorded}" but the turn ` +
        `reached "${reached}". The agent's definition changed while the run was in flight; the run stops ` +
        `rather than redo or skip recorded work.`,
    );
    this.name = "JournalMismatchError";
  }
}

/**
 * What a step writes with its checkpoint: rows and frames in the checkpoint's transaction, or
 * only frames, which go in the checkpoint's own statement (one round trip, no transaction).
 */
export type StepWrite<T> =
  | ((tx: Queryable, result: T) => Promise<void>)
  | { frames: (result: T) => readonly Frame[]; usage?: (result: T) => NewUsage };

/**
 * A run's checkpoint journal as a replay cursor. Each {@link Journal.step} either returns the
 * result recorded at its position (replay) or does the work and records it; the rows the work
 * writes commit in the same transaction as the checkpoint, so neither exists without the other.
 */
export class Journal {
  private position = 0;
  // Signal checkpoints reached but not yet written; the next step's statement records them.
  private unrecorded: CheckpointRow[] = [];
  private wrote = false;

  /**
   * @param store Where checkpoints are recorded.
   * @param runId The run.
   * @param entries The checkpoints recorded so far, in order.
   */
  constructor(
    private readonly store: Store,
    private readonly runId: string,
    private readonly entries: CheckpointRow[],
  ) {}

  /** Whether the next step replays a recorded result. */
  get replaying(): boolean {
    return this.position < this.entries.length;
  }

  /**
   * Whether this journal recorded a checkpoint itself (not only replayed). Then no other process
   * can have begun any later step: it would have had to record this checkpoint first.
   */
  get recordedHere(): boolean {
    return this.wrote;
  }

  /**
   * The result recorded for the next step when that step is `name`, without moving past it:
   * what a replay needs before choosing how to take the step (an `ask` call's journaled kind).
   */
  peek<T>(name: string): T | undefined {
    const recorded = this.entries[this.position];
    return recorded?.name === name ? (recorded.result as T) : undefined;
  }

  /**
   * Runs one checkpointed step. `compute` does the work outside any transaction (model calls,
   * tool handlers) and returns the result to record; `write` adds rows and frames in the same
   * transaction as the checkpoint. On replay neither runs and the recorded result comes back.
   */
  async step<T>(name: string, compute: () => Promise<T>, write?: StepWrite<T>): Promise<T> {
    const replayed = this.replay<T>(name);
    if (replayed) return replayed.result;
    // Round-trip through JSON so the first run sees exactly what a replay will.
    const result = JSON.parse(JSON.stringify((await compute()) ?? null)) as T;
    crashBefore(name);
    const entry = { position: this.position, name, result };
    const entries = [...this.unrecorded, entry];
    if (typeof write === "function") {
      await this.store.db.transaction(async (tx) => {
        await write(tx, result);
        await this.store.recordCheckpoints(tx, this.runId, entries);
      });
      this.store.framesCommitted(this.runId);
    } else {
      // A checkpoint with frames or none is one statement, atomic by itself: no BEGIN and COMMIT.
      await this.store.recordCheckpoints(this.store.db, this.runId, entries, {
        frames: write?.frames(result) ?? [],
        usage: write?.usage ? [write.usage(result)] : [],
      });
    }
    this.unrecorded = [];
    this.wrote = true;
    crashAfter(name);
    this.entries.push(entry);
    this.position += 1;
    // Readers of what the checkpoint streamed, and the requests behind them, go first.
    if (write) await yieldToIo();
    return result;
  }

  /**
   * A step whose result can be read again from the store until it is recorded (how a person
   * settled a row: settled rows do not change). Its checkpoint is written with the next step's,
   * in the same statement, so a resume reaches its first frame one round trip sooner; a process
   * that dies in between reads the same settlement again on replay.
   */
  async signal<T>(name: string, compute: () => Promise<T>): Promise<T> {
    const replayed = this.replay<T>(name);
    if (replayed) return replayed.result;
    const result = JSON.parse(JSON.stringify((await compute()) ?? null)) as T;
    crashBefore(name);
    const entry = { position: this.position, name, result };
    this.unrecorded.push(entry);
    crashAfter(name);
    this.entries.push(entry);
    this.position += 1;
    return result;
  }

  /** Writes signal checkpoints no step has recorded yet; before a run parks or ends. */
  async flush(): Promise<void> {
    if (this.unrecorded.length === 0) return;
    await this.store.recordCheckpoints(this.store.db, this.runId, this.unrecorded);
    this.unrecorded = [];
  }

  private replay<T>(name: string): { result: T } | undefined {
    const recorded = this.entries[this.position];
    if (!recorded) return undefined;
    if (recorded.name !== name) throw new JournalMismatchError(this.position, recorded.name, name);
    this.position += 1;
    return { result: recorded.result as T };
  }
}
