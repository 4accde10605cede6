import type { LanguageModel, ModelMessage } from "ai";
import type { AgentDefinition, ApprovalPolicy } from "../agents/types";
import type { CheckpointRow, RunRow } from "../store/rows";
import { RUNS_CHANNEL, type Store } from "../store/store";
import { Journal } from "./journal";
import { runTurn, userModelMessage } from "./run-turn";
import { CancelSignal, ParkSignal, type Settlement } from "./turn-context";
import { yieldToIo } from "./yield-to-io";

/** What a worker needs. */
export interface WorkerOptions {
  /** The store. */
  store: Store;
  /** This process's name in leases. */
  owner: string;
  /** The agents by name. */
  agents: ReadonlyMap<string, AgentDefinition>;
  /** The model an agent calls. */
  modelFor: (agent: AgentDefinition) => LanguageModel;
  /** Decides which tool calls a person approves. */
  approvalPolicy?: ApprovalPolicy;
  /** How long a claim holds without renewal; a run whose process died is picked up after it. */
  leaseMs: number;
  /** How often to look for ready runs nobody woke (their waker died) and expired leases. */
  sweepMs: number;
  /** The most runs this process runs at once. */
  concurrency: number;
  /** How long `stop()` waits for running runs to reach a checkpoint, in ms (default 5 000). */
  stopGraceMs?: number;
}

// A settlement racing a park makes the worker replay instead; bound it so a bug cannot spin.
const MAX_REPLAYS = 100;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Claims ready runs and runs them: when told (a local kick or a NOTIFY from any process), on
 * start-up, and on a periodic sweep, so a run whose waker died is still picked up. A claim is a
 * conditional UPDATE, so exactly one process resumes a run.
 */
export class Worker {
  private readonly active = new Map<string, Promise<void>>();
  // Settlements this process committed for its active runs, by run then call; gone with the task.
  private readonly settlements = new Map<string, Map<string, Settlement>>();
  private readonly abort = new AbortController();
  // Slots held for runs an answer is about to claim in the statement that settles it.
  private reserved = 0;
  private stopped = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  /** @param options See {@link WorkerOptions}. */
  constructor(private readonly options: WorkerOptions) {}

  /** Starts listening and sweeping. */
  async start(): Promise<void> {
    this.unlisten = await this.options.store.db.listen(RUNS_CHANNEL, (runId) => this.kick(runId));
    this.timer = setInterval(() => void this.sweep(), this.options.sweepMs);
    this.timer.unref?.();
    void this.sweep();
  }

  /**
   * Tries to claim and run one run now. `settled` is a row this process just settled for the run
   * (committed): its `signal:tool:` step takes the settlement from it instead of reading the row.
   */
  kick(runId: string, settled?: { callId: string; settlement: Settlement }): void {
    // A NOTIFY may have started the run already; its replay can still use the settlement.
    if (settled) this.settlements.get(runId)?.set(settled.callId, settled.settlement);
    if (!this.hasRoomFor(runId)) return;
    this.track(runId, settled, (settlements) => this.claimAndRun(runId, settlements));
  }

  /**
   * Holds a slot for a run this process is about to claim while settling one of its rows, so the
   * claim and the settlement share a statement. Returns the owner and lease to claim with, or
   * undefined when this process has no room (the run is then woken for whoever has). Every
   * reservation ends in {@link Worker.unreserve}, before {@link Worker.resume} takes the run.
   */
  reserve(runId: string): { owner: string; leaseMs: number } | undefined {
    if (!this.hasRoomFor(runId)) return undefined;
    this.reserved += 1;
    return { owner: this.options.owner, leaseMs: this.options.leaseMs };
  }

  /** Whether this process may take `runId` now: not stopping, not running it, a slot free. */
  private hasRoomFor(runId: string): boolean {
    return (
      !this.stopped && !this.active.has(runId) && this.active.size + this.reserved < this.options.concurrency
    );
  }

  /** Gives back a slot {@link Worker.reserve} held. */
  unreserve(): void {
    this.reserved = Math.max(0, this.reserved - 1);
  }

  /** Runs a run a settlement claimed with a reserved slot, from the journal the claim read. */
  resume(
    claimed: { run: RunRow; checkpoints: CheckpointRow[] },
    settled: { callId: string; settlement: Settlement },
  ) {
    this.track(claimed.run.id, settled, (settlements) =>
      this.runClaimed(claimed.run, claimed.checkpoints, settlements),
    );
  }

  private track(
    runId: string,
    settled: { callId: string; settlement: Settlement } | undefined,
    work: (settlements: Map<string, Settlement>) => Promise<void>,
  ): void {
    // A resumed run may land while a kick for it that will not claim it is still tracked: the
    // newer task takes the run's place, and the older one's end leaves it there.
    const settlements = new Map<string, Settlement>(this.settlements.get(runId));
    if (settled) settlements.set(settled.callId, settled.settlement);
    this.settlements.set(runId, settlements);
    const task: Promise<void> = work(settlements)
      .catch((error) => console.error(`Prepick: run ${runId} stopped unexpectedly: ${describe(error)}`))
      .finally(() => {
        if (this.active.get(runId) !== task) return;
        this.active.delete(runId);
        this.settlements.delete(runId);
      });
    this.active.set(runId, task);
  }

  /** Looks for claimable runs. */
  async sweep(): Promise<void> {
    if (this.stopped) return;
    try {
      const ids = await this.options.store.claimableRuns(this.options.concurrency);
      for (const id of ids) this.kick(id);
    } catch (error) {
      if (!this.stopped) console.error(`Prepick: the sweep for ready runs failed: ${describe(error)}`);
    }
  }

  /** Stops claiming, interrupts running model calls and hands interrupted runs back as ready. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.unlisten?.().catch(() => undefined);
    this.abort.abort(new Error("The server is stopping."));
    // A handler that never returns must not hold shutdown; its run's lease expires and another
    // process (or the next start) replays it.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise((resolve) => {
      timer = setTimeout(resolve, this.options.stopGraceMs ?? 5_000);
    });
    await Promise.race([Promise.allSettled(this.active.values()), grace]);
    clearTimeout(timer);
  }

  private async claimAndRun(runId: string, settlements: Map<string, Settlement>): Promise<void> {
    const { store, owner, leaseMs } = this.options;
    const claimed = await store.claimRunWithJournal(runId, owner, leaseMs);
    if (!claimed) return;
    await this.runClaimed(claimed.run, claimed.checkpoints, settlements);
  }

  private async runClaimed(run: RunRow, checkpoints: CheckpointRow[], settlements: Map<string, Settlement>) {
    const { store, owner, leaseMs } = this.options;
    const runId = run.id;
    const heartbeat = setInterval(
      () => void store.renewLease(runId, owner, leaseMs).catch(() => undefined),
      leaseMs / 3,
    );
    heartbeat.unref?.();
    try {
      await this.execute(run, checkpoints, settlements);
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async history(run: RunRow): Promise<ModelMessage[]> {
    if (run.turn === 0) return [];
    const runs = await this.options.store.threadRuns(run.threadId);
    return runs
      .filter((earlier) => earlier.turn < run.turn)
      .flatMap((earlier) => earlier.modelMessages ?? [userModelMessage(earlier.userMessage)]);
  }

  private async execute(
    claimed: RunRow,
    claimedJournal: CheckpointRow[],
    settlements: Map<string, Settlement>,
  ): Promise<void> {
    const { store, owner } = this.options;
    for (let replay = 0; replay < MAX_REPLAYS; replay++) {
      // The claim cleared the wake flag and read the journal; a replay after a lost park does both again.
      const run = replay === 0 ? claimed : await store.clearWake(claimed.id, owner);
      if (!run) return;
      const agent = this.options.agents.get(run.agent);
      if (!agent) {
        await store.finishRun(run.id, owner, {
          status: "failed",
          error: `The agent "${run.agent}" is not configured on this server, so the run cannot go on.`,
        });
        return;
      }
      const journal = new Journal(
        store,
        run.id,
        replay === 0 ? claimedJournal : await store.checkpoints(run.id),
      );
      let history: Promise<ModelMessage[]> | undefined;
      try {
        const messages = await runTurn({
          store,
          run,
          agent,
          model: this.options.modelFor(agent),
          ...(this.options.approvalPolicy ? { approvalPolicy: this.options.approvalPolicy } : {}),
          journal,
          // Read when the first model call needs it, not before the resume's first frame.
          history: () => {
            history ??= this.history(run);
            return history;
          },
          settlements,
          emit: async (frames) => {
            await store.appendFrames(store.db, run.id, frames);
            await yieldToIo();
          },
          abortSignal: this.abort.signal,
        });
        await journal.flush();
        await store.finishRun(run.id, owner, { status: "completed", modelMessages: messages });
        return;
      } catch (error) {
        if (error instanceof ParkSignal) {
          await journal.flush();
          if (await store.parkRun(run.id, owner, error.waitingFor)) return;
          continue;
        }
        if (error instanceof CancelSignal) {
          await store.finishRun(run.id, owner, { status: "cancelled" });
          return;
        }
        if (this.stopped) {
          await store.releaseRun(run.id, owner).catch(() => undefined);
          return;
        }
        await store.finishRun(run.id, owner, { status: "failed", error: describe(error) });
        return;
      }
    }
    await store.finishRun(claimed.id, owner, {
      status: "failed",
      error: `The run was woken ${MAX_REPLAYS} times without settling; it stops rather than spin.`,
    });
  }
}
