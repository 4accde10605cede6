import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import type { Frame } from "prepick/core";
import type { AgentDefinition, ApprovalPolicy } from "../agents/types";
import { isStoreUnavailable } from "../database/store-unavailable";
import { logError } from "../log";
import { CANCELS_CHANNEL, RUNS_CHANNEL } from "../store/channels";
import type { ClaimedRun, Lease, RunRow } from "../store/rows";
import type { Store } from "../store/store";
import type { RunFeeds } from "../stream/run-feeds";
import type { CrashHooks } from "./crash-hooks";
import { Journal, LostRunError } from "./journal";
import { AgentMissingError, ModelCallError, ModelTimeoutError, runFailure } from "./run-failure";
import { runTurn, userModelMessage } from "./run-turn";
import { CancelSignal, ParkSignal, type RunTimeouts } from "./turn-context";
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
  /** How long a model call or a tool call may take unless its agent (or tool) says otherwise. */
  timeouts: RunTimeouts;
}

/** A run this process is running: its task, and the signal that stops its model call and tool. */
interface ActiveRun {
  task: Promise<void>;
  abort: AbortController;
}

// A settlement racing a park makes the worker replay instead; bound it so a bug cannot spin.
const MAX_REPLAYS = 100;
// The most runs one claim statement takes: a burst is claimed in a few statements, each small.
const CLAIM_BATCH = 32;
// Expired leases produce no notification, so every process looks for them this often (at most).
const LEASE_CHECK_MS = 500;
// How long to wait before asking an unreachable store again: doubling from the first to the last.
const RETRY_MS = { first: 100, last: 2_000 } as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `make()`, called the first time the returned function is, and kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/** Whether a run's error is the store's (unreachable, full), not the model's own. */
function storeFailed(error: unknown): boolean {
  // A provider's own ECONNREFUSED is the model's failure, whatever its cause says.
  if (error instanceof ModelCallError || error instanceof ModelTimeoutError) return false;
  return isStoreUnavailable(error);
}

/** Why a run's signal aborts when its process stops: the run is handed back, not ended. */
class StoppingError extends Error {
  constructor() {
    super("The server is stopping.");
    this.name = "StoppingError";
  }
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
  private readonly active = new Map<string, ActiveRun>();
  // Slots lent to statements that may claim a run themselves (see `admit`).
  private lent = 0;
  private claiming: Promise<void> | undefined;
  private claimAgain = false;
  // Whether runs may be waiting ready that this process has not tried to claim: a wake came while
  // it was full, or its last claim took all it asked for. Until then a freed slot claims nothing,
  // so a run's end costs no statement when nothing waits.
  private mayBeReady = true;
  private stopped = false;
  // Set after a statement that may have claimed a run for this process broke with its connection:
  // until the store answers again and such runs are handed back, nothing more is claimed here.
  private recovering: Promise<void> | undefined;
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private readonly unlisten: (() => Promise<void>)[] = [];

  /** @param options See {@link WorkerOptions}. */
  constructor(private readonly options: WorkerOptions) {}

  /** Whether this process is stopping, as every run's turn asks it. */
  private readonly isStopping = (): boolean => this.stopped;

  private get lease(): Lease {
    return { owner: this.options.owner, leaseMs: this.options.leaseMs };
  }

  /** How many more runs this process may take now. */
  private room(): number {
    return this.stopped || this.recovering ? 0 : this.options.maxRuns - this.active.size - this.lent;
  }

  /** Starts listening, renewing, looking for expired leases and sweeping; claims what is ready. */
  async start(): Promise<void> {
    const { store, leaseMs, sweepMs } = this.options;
    this.unlisten.push(
      await store.db.listen(RUNS_CHANNEL, () => {
        this.mayBeReady = true;
        this.fill();
      }),
      // Another process took the cancel of a run this one runs.
      await store.db.listen(CANCELS_CHANNEL, (runId) => this.abortRun(runId)),
    );
    const every = (ms: number, work: () => Promise<unknown>) => {
      const timer = setInterval(() => {
        work().catch((error) => {
          // An unreachable store is said by every request that meets it (503); once here is noise.
          if (!this.stopped && !isStoreUnavailable(error)) logError("worker timer failed", error);
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
    } catch (error) {
      // The statement may have committed, claiming a run here, with its answer lost on the way.
      if (lease && isStoreUnavailable(error)) this.recoverStrays();
      throw error;
    } finally {
      if (lease) this.lent -= 1;
      const claimed = result && "claimed" in result ? (result.claimed as ClaimedRun | undefined) : undefined;
      if (claimed) this.run(claimed);
      else if (lease && this.mayBeReady) this.fill();
    }
  }

  /**
   * Stops a run that was asked to stop (its cancel is flagged in the store): aborts its model call
   * and tool in flight here, or tells the process that runs it. The run then ends `cancelled`.
   */
  async cancel(runId: string): Promise<void> {
    if (this.abortRun(runId)) return;
    await this.options.store.db.notify(CANCELS_CHANNEL, runId);
  }

  /** Aborts a run this process runs, as cancelled; false when it runs no such run. */
  private abortRun(runId: string): boolean {
    const active = this.active.get(runId);
    if (!active) return false;
    active.abort.abort(new CancelSignal());
    return true;
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
        if (this.stopped) return;
        if (isStoreUnavailable(error)) this.recoverStrays();
        else logError("claiming ready runs failed", error);
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
    const abort = new AbortController();
    const release = this.options.feeds.hold(runId);
    const task: Promise<void> = this.execute(claimed, abort.signal)
      .catch((error) => {
        logError("run stopped unexpectedly", error, { runId });
      })
      .finally(() => {
        release();
        this.active.delete(runId);
        if (this.mayBeReady) this.fill();
      });
    this.active.set(runId, { task, abort });
  }

  /**
   * Waits for the store to answer again after it broke under a run this process holds, then reads
   * the run and its journal afresh: undefined when the run is no longer this process's to carry on
   * (it ended meanwhile, its last statement having committed though its answer was lost, or its
   * lease ran out and another process took it), or when this process stops first.
   */
  private async whenStoreAnswers(runId: string): Promise<ClaimedRun | undefined> {
    const until = Date.now() + this.options.leaseMs;
    for (let delay: number = RETRY_MS.first; !this.stopped && Date.now() < until; ) {
      await sleep(delay);
      try {
        return await this.options.store.runs.held(runId, this.options.owner);
      } catch (error) {
        if (!isStoreUnavailable(error)) throw error;
      }
      delay = Math.min(delay * 2, RETRY_MS.last);
    }
    return undefined;
  }

  /**
   * After a statement that could have claimed runs here broke with its connection (a settlement,
   * a start, a claim), hands back every run leased to this process that it is not running, once
   * the store answers. Claiming waits meanwhile, so no claim can commit between the list of runs
   * held here and the statement.
   */
  private recoverStrays(): void {
    if (this.recovering || this.stopped) return;
    this.recovering = (async () => {
      for (let delay: number = RETRY_MS.first; !this.stopped; delay = Math.min(delay * 2, RETRY_MS.last)) {
        await sleep(delay);
        // A claim still on its way would be taken for a stray: let it come back first.
        if (this.lent > 0 || this.claiming) continue;
        try {
          await this.options.store.runs.releaseStray(this.options.owner, [...this.active.keys()]);
          return;
        } catch (error) {
          if (!isStoreUnavailable(error)) {
            logError("handing back stray runs failed", error);
            return;
          }
        }
      }
    })().finally(() => {
      this.recovering = undefined;
      this.wake();
    });
  }

  /** Stops claiming, interrupts running model calls and hands interrupted runs back as ready. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all(this.unlisten.map((unlisten) => unlisten().catch(() => undefined)));
    for (const { abort } of this.active.values()) abort.abort(new StoppingError());
    // A handler that never returns must not hold shutdown; its run's lease expires and another
    // process (or the next start) replays it.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const grace = new Promise((resolve) => {
      timer = setTimeout(resolve, this.options.stopGraceMs ?? 5_000);
    });
    const tasks = [...this.active.values()].map((active) => active.task);
    await Promise.race([Promise.allSettled([...tasks, this.claiming]), grace]);
    clearTimeout(timer);
  }

  private async history(run: RunRow): Promise<ModelMessage[]> {
    if (run.turn === 0) return [];
    const runs = await this.options.store.runs.ofThread(run.threadId);
    return runs
      .filter((earlier) => earlier.turn < run.turn)
      .flatMap((earlier) => earlier.modelMessages ?? [userModelMessage(earlier.userMessage)]);
  }

  /** The time limits of an agent's calls: its own, else this server's. */
  private timeoutsOf(agent: AgentDefinition): RunTimeouts {
    return {
      modelMs: agent.timeouts?.modelMs ?? this.options.timeouts.modelMs,
      toolMs: agent.timeouts?.toolMs ?? this.options.timeouts.toolMs,
    };
  }

  /** Ends a run as failed: a code and a sentence in its `run-finish`, the error's own text in the log. */
  private async fail(run: RunRow, error: unknown): Promise<void> {
    const { code, error: sentence, errorId } = runFailure(run.id, error);
    await this.options.store.runs.finish(run.id, this.options.owner, {
      status: "failed",
      error: sentence,
      code,
      errorId,
    });
  }

  /**
   * Carries a claimed run on until it ends, parks or is no longer this process's. A store that
   * breaks under it (a statement refused for a lost connection, a full disk) is not the run's
   * failure: once the store answers, the run goes on from the journal the store holds, in the same
   * slot, without waiting out a lease or being handed around.
   */
  private async execute(claimed: ClaimedRun, signal: AbortSignal): Promise<void> {
    let { run, checkpoints: entries, lastSeq } = claimed;
    const agent = this.options.agents.get(run.agent);
    if (!agent) {
      await this.fail(run, new AgentMissingError(run.agent));
      return;
    }
    // Read when the first model call needs it, not before the resume's first frame; once per run.
    let history = once(() => this.history(run));
    for (let woken = 0; woken < MAX_REPLAYS; ) {
      try {
        const end = await this.replay(run, agent, { checkpoints: entries, lastSeq }, signal, history);
        if (end === undefined) return;
        // Settled while it ran, so it goes on from what this process holds.
        ({ checkpoints: entries, lastSeq } = end);
        woken += 1;
      } catch (error) {
        if (this.stopped) {
          await this.options.store.runs.release(run.id, this.options.owner).catch(() => undefined);
          return;
        }
        if (!storeFailed(error)) throw error;
        const held = await this.whenStoreAnswers(run.id);
        if (!held) return;
        ({ run, checkpoints: entries, lastSeq } = held);
        history = once(() => this.history(run));
      }
    }
    await this.fail(
      run,
      new Error(`The run was woken ${MAX_REPLAYS} times without settling; it stops rather than spin.`),
    );
  }

  /**
   * One replay of the run's turn against its journal (`from`: its checkpoints and the last seq of
   * its frames), to its end: finished, failed, cancelled or parked (undefined), or settled while it
   * ran (the journal to replay from again). A failure of the store is thrown, never recorded as the
   * run's.
   */
  private async replay(
    run: RunRow,
    agent: AgentDefinition,
    from: Pick<ClaimedRun, "checkpoints" | "lastSeq">,
    signal: AbortSignal,
    history: () => Promise<ModelMessage[]>,
  ): Promise<Pick<ClaimedRun, "checkpoints" | "lastSeq"> | undefined> {
    const { store, owner, feeds } = this.options;
    const journal = new Journal(store, run, owner, from.checkpoints, this.options.crashHooks, from.lastSeq);
    try {
      const end = await runTurn({
        store,
        run,
        agent,
        model: this.options.modelFor(agent),
        ...(this.options.approvalPolicy ? { approvalPolicy: this.options.approvalPolicy } : {}),
        journal,
        history,
        async emit(frames) {
          await store.frames.append(run.id, owner, frames);
          await yieldToIo();
        },
        live: {
          provisional(after: number, frames: readonly Frame[]) {
            feeds.provisional(run.id, after, frames);
          },
          abandon() {
            feeds.abandon(run.id);
          },
        },
        stopping: this.isStopping,
        abortSignal: signal,
        timeouts: this.timeoutsOf(agent),
      });
      if (!end.completed) {
        await store.runs.finish(run.id, owner, { status: "completed", modelMessages: end.messages });
      }
      return undefined;
    } catch (error) {
      if (error instanceof ParkSignal) {
        const parked = await store.runs.park(run.id, owner, error.callId);
        if (parked === "parked" || parked === "lost") return undefined;
        if (parked === "cancelled") {
          await store.runs.finish(run.id, owner, { status: "cancelled" });
          return undefined;
        }
        // Still claimed, nothing else wrote its journal: the replay starts from what it holds.
        return { checkpoints: journal.recorded(), lastSeq: journal.lastSeq };
      }
      // Another process runs it now: leave the run, its journal and its lease alone.
      if (error instanceof LostRunError) return undefined;
      if (error instanceof CancelSignal) {
        await store.runs.finish(run.id, owner, { status: "cancelled" });
        return undefined;
      }
      if (this.stopped || storeFailed(error)) throw error;
      await this.fail(run, error);
      return undefined;
    }
  }
}
