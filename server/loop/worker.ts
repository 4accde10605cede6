import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import type { Frame } from "prepick/core";
import type { AgentDefinition, ApprovalPolicy } from "../agents/types";
import { RUNS_CHANNEL } from "../store/channels";
import type { ClaimedRun, Lease, RunRow } from "../store/rows";
import type { Store } from "../store/store";
import type { RunFeeds } from "../stream/run-feeds";
import type { CrashHooks } from "./crash-hooks";
import { Journal, LostRunError } from "./journal";
import { runTurn, userModelMessage } from "./run-turn";
import { CancelSignal, ParkSignal } from "./turn-context";
import { yieldToIo } from "./yield-to-io";

/** What a worker needs. */
export interface WorkerOptions {
  /** The store. */
  store: Store;
  /** This process's live run frames: a model call streams to followers here before it is stored. */
  feeds: RunFeeds;
  /** This process's name in leases. */
  owner: string;
  /** The agents by name. */
  agents: ReadonlyMap<string, AgentDefinition>;
  /** The model an agent calls. */
  modelFor: (agent: AgentDefinition) => LanguageModelV4;
  /** Decides which tool calls a person approves. */
  approvalPolicy?: ApprovalPolicy;
  /** How long a claim holds without renewal; a run whose process died is picked up after it. */
  leaseMs: number;
  /** How often to look for ready runs whose notification was lost: a safety net only. */
  sweepMs: number;
  /** The most runs this process holds at once; past it, runs wait as `ready` in the store. */
  maxRuns: number;
  /** How long `stop()` waits for running runs to reach a checkpoint, in ms (default 5 000). */
  stopGraceMs?: number;
  /** Fault injection around each checkpoint; the crash tests' only. */
  crashHooks: CrashHooks;
}

// A settlement racing a park makes the worker replay instead; bound it so a bug cannot spin.
const MAX_REPLAYS = 100;
// The most runs one claim statement takes: a burst is claimed in a few statements, each small.
const CLAIM_BATCH = 32;
// Expired leases produce no notification, so every process looks for them this often (at most).
const LEASE_CHECK_MS = 500;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs this process's share of the runs, work-conserving: whenever it has room (a run became
 * ready and was notified, a run here ended or parked, a slot lent for a claim came back) it
 * claims the runs that have waited longest, in one statement, until it is full or none is
 * ready. It holds up to `maxRuns` at once, as runs mostly wait on a model or a tool. Its leases
 * are renewed together; runs whose process died are handed back as ready once their lease
 * expires, by whichever process looks first. A periodic sweep only catches lost notifications.
 */
export class Worker {
  private readonly active = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  // Slots lent to statements that may claim a run themselves (see `admit`).
  private lent = 0;
  private claiming: Promise<void> | undefined;
  private claimAgain = false;
  // Whether runs may be waiting ready that this process has not tried to claim: a wake came while
  // it was full, or its last claim took all it asked for. Until then a freed slot claims nothing,
  // so a run's end costs no statement when nothing waits.
  private mayBeReady = true;
  private stopped = false;
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private unlisten: (() => Promise<void>) | undefined;

  /** @param options See {@link WorkerOptions}. */
  constructor(private readonly options: WorkerOptions) {}

  private get lease(): Lease {
    return { owner: this.options.owner, leaseMs: this.options.leaseMs };
  }

  /** How many more runs this process may take now. */
  private room(): number {
    return this.stopped ? 0 : this.options.maxRuns - this.active.size - this.lent;
  }

  /** Starts listening, renewing, looking for expired leases and sweeping; claims what is ready. */
  async start(): Promise<void> {
    const { store, leaseMs, sweepMs } = this.options;
    this.unlisten = await store.db.listen(RUNS_CHANNEL, () => {
      this.mayBeReady = true;
      this.fill();
    });
    const every = (ms: number, work: () => Promise<unknown>) => {
      const timer = setInterval(() => {
        work().catch((error) => {
          if (!this.stopped) console.error(`Prepick: a worker's timer failed: ${describe(error)}`);
        });
      }, ms);
      timer.unref?.();
      this.timers.push(timer);
    };
    every(leaseMs / 3, () => store.runs.renewLeases(this.lease, [...this.active.keys()]));
    every(Math.min(LEASE_CHECK_MS, leaseMs / 2), async () => {
      if ((await store.runs.expireLeases()) > 0) this.wake();
    });
    every(sweepMs, async () => this.wake());
    this.fill();
  }

  /**
   * Runs `claim`, a statement that may claim a run for this process as it does its own work (the
   * settlement of an answer, the start of a run), with this process's lease when it has room for
   * one more run, else with none (the statement then leaves the run ready for whoever has room).
   * A run the statement claimed (its result's `claimed`) starts here at once; an unused slot goes
   * back to the ready runs.
   */
  async admit<T extends object>(claim: (lease?: Lease) => Promise<T>): Promise<T> {
    const lease = this.room() > 0 ? this.lease : undefined;
    if (lease) this.lent += 1;
    let result: T | undefined;
    try {
      result = await claim(lease);
      return result;
    } finally {
      if (lease) this.lent -= 1;
      const claimed = result && "claimed" in result ? (result.claimed as ClaimedRun | undefined) : undefined;
      if (claimed) this.run(claimed);
      else if (lease && this.mayBeReady) this.fill();
    }
  }

  /** Claims ready runs now, whether or not any are known to wait. */
  private wake(): void {
    this.mayBeReady = true;
    this.fill();
  }

  /** Claims ready runs while this process has room and some may be ready; one claim at a time. */
  private fill(): void {
    if (this.room() <= 0) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = (async () => {
      for (;;) {
        this.claimAgain = false;
        const wanted = Math.min(CLAIM_BATCH, this.room());
        if (wanted <= 0) return;
        const claimed = await this.options.store.runs.claimReady(this.lease, wanted);
        for (const run of claimed) this.run(run);
        // Fewer than asked: none is left ready, unless a wake arrived meanwhile.
        if (claimed.length < wanted && !this.claimAgain) {
          this.mayBeReady = false;
          return;
        }
      }
    })()
      .catch((error) => {
        if (!this.stopped) console.error(`Prepick: claiming ready runs failed: ${describe(error)}`);
      })
      .finally(() => {
        this.claiming = undefined;
      });
  }

  /** Runs a run this process claimed, in a slot of its own; the slot's end claims the next. */
  private run(claimed: ClaimedRun): void {
    const runId = claimed.run.id;
    // This process still runs it (its lease lapsed and it claimed it again): the task goes on.
    if (this.active.has(runId)) return;
    if (this.stopped) {
      void this.options.store.runs.release(runId, this.options.owner).catch(() => undefined);
      return;
    }
    const release = this.options.feeds.hold(runId);
    const task: Promise<void> = this.execute(claimed)
      .catch((error) => console.error(`Prepick: run ${runId} stopped unexpectedly: ${describe(error)}`))
      .finally(() => {
        release();
        this.active.delete(runId);
        if (this.mayBeReady) this.fill();
      });
    this.active.set(runId, task);
  }

  /** Stops claiming, interrupts running model calls and hands interrupted runs back as ready. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await this.unlisten?.().catch(() => undefined);
    this.abort.abort(new Error("The server is stopping."));
    // A handler that never returns must not hold shutdown; its run's lease expires and another
    // process (or the next start) replays it.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise((resolve) => {
      timer = setTimeout(resolve, this.options.stopGraceMs ?? 5_000);
    });
    await Promise.race([Promise.allSettled([...this.active.values(), this.claiming]), grace]);
    clearTimeout(timer);
  }

  private async history(run: RunRow): Promise<ModelMessage[]> {
    if (run.turn === 0) return [];
    const runs = await this.options.store.runs.ofThread(run.threadId);
    return runs
      .filter((earlier) => earlier.turn < run.turn)
      .flatMap((earlier) => earlier.modelMessages ?? [userModelMessage(earlier.userMessage)]);
  }

  private async execute(claimed: ClaimedRun): Promise<void> {
    const { store, owner, feeds } = this.options;
    const { run } = claimed;
    const agent = this.options.agents.get(run.agent);
    if (!agent) {
      await store.runs.finish(run.id, owner, {
        status: "failed",
        error: `The agent "${run.agent}" is not configured on this server, so the run cannot go on.`,
      });
      return;
    }
    let entries = claimed.checkpoints;
    let lastSeq = claimed.lastSeq;
    let history: Promise<ModelMessage[]> | undefined;
    const live = {
      provisional: (after: number, frames: readonly Frame[]) => feeds.provisional(run.id, after, frames),
      abandon: () => feeds.abandon(run.id),
    };
    for (let replay = 0; replay < MAX_REPLAYS; replay++) {
      const journal = new Journal(store, run, owner, entries, this.options.crashHooks, lastSeq);
      try {
        const end = await runTurn({
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
          emit: async (frames) => {
            await store.frames.append(run.id, owner, frames);
            await yieldToIo();
          },
          live,
          stopping: () => this.stopped,
          abortSignal: this.abort.signal,
        });
        if (!end.completed) {
          await store.runs.finish(run.id, owner, { status: "completed", modelMessages: end.messages });
        }
        return;
      } catch (error) {
        if (error instanceof ParkSignal) {
          const parked = await store.runs.park(run.id, owner, error.callId);
          if (parked === "parked" || parked === "lost") return;
          if (parked === "cancelled") {
            await store.runs.finish(run.id, owner, { status: "cancelled" });
            return;
          }
          // Settled while it ran, so it goes on. Still claimed, nothing else wrote its journal:
          // the replay starts from what this process holds.
          entries = journal.recorded();
          lastSeq = journal.lastSeq;
          continue;
        }
        // Another process runs it now: leave the run, its journal and its lease alone.
        if (error instanceof LostRunError) return;
        if (error instanceof CancelSignal) {
          await store.runs.finish(run.id, owner, { status: "cancelled" });
          return;
        }
        if (this.stopped) {
          await store.runs.release(run.id, owner).catch(() => undefined);
          return;
        }
        await store.runs.finish(run.id, owner, { status: "failed", error: describe(error) });
        return;
      }
    }
    await store.runs.finish(run.id, owner, {
      status: "failed",
      error: `The run was woken ${MAX_REPLAYS} times without settling; it stops rather than spin.`,
    });
  }
}
