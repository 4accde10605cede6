import type { Queryable } from "../database/database";
import type { CheckpointRow } from "../store/rows";
import type { Store } from "../store/store";
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
 * A run's checkpoint journal as a replay cursor. Each {@link Journal.step} either returns the
 * result recorded at its position (replay) or does the work and records it; the rows the work
 * writes commit in the same transaction as the checkpoint, so neither exists without the other.
 */
export class Journal {
  private position = 0;

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
   * Runs one checkpointed step. `compute` does the work outside any transaction (model calls,
   * tool handlers) and returns the result to record; `write` adds rows and frames in the same
   * transaction as the checkpoint. On replay neither runs and the recorded result comes back.
   */
  async step<T>(
    name: string,
    compute: () => Promise<T>,
    write?: (tx: Queryable, result: T) => Promise<void>,
  ): Promise<T> {
    const recorded = this.entries[this.position];
    if (recorded) {
      if (recorded.name !== name) throw new JournalMismatchError(this.position, recorded.name, name);
      this.position += 1;
      return recorded.result as T;
    }
    // Round-trip through JSON so the first run sees exactly what a replay will.
    const result = JSON.parse(JSON.stringify((await compute()) ?? null)) as T;
    crashBefore(name);
    const position = this.position;
    if (write) {
      await this.store.db.transaction(async (tx) => {
        await write(tx, result);
        await this.store.recordCheckpoint(tx, this.runId, position, name, result);
      });
      this.store.framesCommitted(this.runId);
    } else {
      // A lone checkpoint is one statement, atomic by itself: no BEGIN and COMMIT round trips.
      await this.store.recordCheckpoint(this.store.db, this.runId, position, name, result);
    }
    crashAfter(name);
    this.entries.push({ position, name, result });
    this.position += 1;
    // Readers of what the checkpoint streamed, and the requests behind them, go first.
    if (write) await yieldToIo();
    return result;
  }
}
