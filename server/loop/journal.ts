import type { StepRows } from "../store/checkpoints";
import { inJsonbOrder, jsonOnce } from "../store/json";
import type { CheckpointRow } from "../store/rows";
import type { Store } from "../store/store";
import type { CrashHooks } from "./crash-hooks";
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
 * This process no longer holds the run: its lease lapsed (the process stalled past it) and
 * another process took the run over. Nothing of the step was written; the run is the other's.
 */
export class LostRunError extends Error {
  constructor(runId: string, name: string) {
    super(`Run ${runId} was taken over by another process before ${name} was recorded here.`);
    this.name = "LostRunError";
  }
}

/** What a step writes beside its checkpoint, given the result it records. */
export type StepWrite<T> = (result: T) => StepRows;

/** How a step's result is kept. */
export interface StepOptions {
  /**
   * The result is plain JSON data as built (strings, finite numbers, booleans, null, arrays and
   * plain objects, no undefined, every object whose key order matters already in `jsonb`'s): it
   * reads back from the journal as it is, so the run goes on with it as built, unparsed.
   * Otherwise the run goes on with the result as the journal will give it back.
   */
  plain?: boolean;
}

/**
 * A run's checkpoint journal as a replay cursor. Each {@link Journal.step} either returns the
 * result recorded at its position (replay) or does the work and records it, with every row and
 * frame the work wrote, in one statement: neither exists without the other.
 */
export class Journal {
  private position = 0;
  private wrote = false;
  /** Derived checkpoints computed here and not yet recorded: they ride with the next step's. */
  private derived: CheckpointRow[] = [];
  private cancelAsked: boolean;
  private last: number;

  /**
   * @param store Where checkpoints are recorded.
   * @param run The run, as its claim read it.
   * @param owner This process's name in leases: only the lease's holder writes.
   * @param entries The checkpoints recorded so far, in order.
   * @param hooks Fault injection around each checkpoint recorded here.
   * @param lastSeq The number of the run's last frame as the claim read it.
   */
  constructor(
    private readonly store: Store,
    private readonly run: { id: string; cancelRequested: boolean },
    private readonly owner: string,
    private readonly entries: CheckpointRow[],
    private readonly hooks: CrashHooks,
    lastSeq: number,
  ) {
    this.cancelAsked = run.cancelRequested;
    this.last = lastSeq;
  }

  /**
   * The number of the run's last stored frame: what a model call's frames, streamed before its
   * checkpoint stores them, follow. Only the run's holder writes its frames while it runs.
   */
  get lastSeq(): number {
    return this.last;
  }

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
   * Whether cancelling the run was asked, as of the latest statement this journal made (its
   * claim, or its last checkpoint): the check before a model call costs no read of its own.
   */
  get cancelRequested(): boolean {
    return this.cancelAsked;
  }

  /** Every checkpoint recorded so far, replayed or written here: what a replay in this process starts from. */
  recorded(): CheckpointRow[] {
    return [...this.entries];
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
   * Runs one checkpointed step. `compute` does the work outside any statement (model calls,
   * tool handlers) and returns the result to record; `write` names the rows and frames recorded
   * with the checkpoint. On replay neither runs and the recorded result comes back.
   */
  async step<T>(
    name: string,
    compute: () => Promise<T>,
    write?: StepWrite<T>,
    options: StepOptions = {},
  ): Promise<T> {
    const replayed = this.replay<T>(name);
    if (replayed) return replayed.result;
    const entry = this.entry(name, await compute(), options);
    const result = entry.result as T;
    const entries = [...this.derived, entry];
    for (const each of entries) this.hooks.before(each.name);
    const written = await this.store.checkpoints.record(this.run.id, this.owner, entries, write?.(result));
    if (!written.held) throw new LostRunError(this.run.id, name);
    this.cancelAsked = written.cancelRequested;
    if (written.seq !== undefined) this.last = written.seq;
    this.wrote = true;
    for (const entry of entries) this.hooks.after(entry.name);
    this.entries.push(...entries);
    this.derived = [];
    this.position += 1;
    // Readers of what the checkpoint streamed, and the requests behind them, go first.
    await yieldToIo();
    return result;
  }

  /** The result recorded at the next position, moving past it, when the journal holds one there. */
  private replay<T>(name: string): { result: T } | undefined {
    const recorded = this.entries[this.position];
    if (!recorded) return undefined;
    if (recorded.name !== name) throw new JournalMismatchError(this.position, recorded.name, name);
    this.position += 1;
    return { result: recorded.result as T };
  }

  /**
   * A step whose result follows from what the journal already holds, and that writes nothing
   * beside its checkpoint: its checkpoint is recorded in the next step's statement rather than in
   * one of its own. A process that dies before then loses nothing, since a replay computes the
   * same result from the same checkpoints; a turn that ends before another step (cancelled, or
   * failed) leaves it unrecorded.
   */
  async derive<T>(name: string, compute: () => Promise<T>): Promise<T> {
    const replayed = this.replay<T>(name);
    if (replayed) return replayed.result;
    const entry = this.entry(name, await compute(), {});
    this.derived.push(entry);
    this.position += 1;
    return entry.result as T;
  }

  /**
   * The checkpoint row for the next position, serialized here once (the store writes that text):
   * its result as a replay will read it back from `jsonb` (values and key order), unless it is
   * plain data in that order already.
   */
  private entry(name: string, computed: unknown, options: StepOptions): CheckpointRow {
    const entry: CheckpointRow = { position: this.position, name, result: computed ?? null };
    const text = jsonOnce(entry);
    if (!options.plain) entry.result = inJsonbOrder((JSON.parse(text) as CheckpointRow).result);
    return entry;
  }
}
