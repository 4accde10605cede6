import type { Database } from "../database/database";
import { ActorLoadStore } from "./actor-load";
import { CheckpointStore } from "./checkpoints";
import { DeadlineStore } from "./deadlines";
import { DraftStore } from "./drafts";
import { FrameStore, type FramesWritten } from "./frames";
import { migrate } from "./migrate";
import { PendingCallStore } from "./pending-calls";
import { RetentionStore } from "./retention";
import { RunStore } from "./runs";
import { SettlementStore } from "./settlements";
import { ThreadStore } from "./threads";
import { ToolCallStore } from "./tool-calls";
import { WebhookOutboxStore } from "./webhook-outbox";

/**
 * Every read and write of the reference server's state, by what is stored: threads, runs and
 * their leases, frames, checkpoints, tool calls, and a person's settlement of a tool call. Each
 * write is one statement where it can be (common table expressions, with the NOTIFY in the same
 * statement), so it is atomic without a transaction and costs one round trip; PGlite and
 * PostgreSQL run the same SQL.
 */
export class Store {
  /** Threads. */
  readonly threads: ThreadStore;
  /** Runs and their leases. */
  readonly runs: RunStore;
  /** The runs' streams. */
  readonly frames: FrameStore;
  /** The runs' journals, and every row a step writes with its checkpoint. */
  readonly checkpoints: CheckpointStore;
  /** Tool-call rows. */
  readonly toolCalls: ToolCallStore;
  /** A person's settlement of a pending row. */
  readonly settlements: SettlementStore;
  /** The approvals inbox: each actor's waiting calls and the changes to them. */
  readonly pendingCalls: PendingCallStore;
  /** What each actor has going, for the per-actor limits. */
  readonly actorLoad: ActorLoadStore;
  /** Removes finished runs' frames and checkpoints past the retention. */
  readonly retention: RetentionStore;
  /** Runs' opt-in deadlines. */
  readonly deadlines: DeadlineStore;
  /** Drafts of waiting question sets, per actor and call. */
  readonly drafts: DraftStore;
  /** The webhook endpoints and the outbox of events for them. */
  readonly webhooks: WebhookOutboxStore;

  private framesWritten: FramesWritten = () => undefined;

  /** @param db The database the store lives in. */
  constructor(readonly db: Database) {
    const written: FramesWritten = (runId, first, frames) => this.framesWritten(runId, first, frames);
    this.threads = new ThreadStore(db);
    this.runs = new RunStore(db, written);
    this.frames = new FrameStore(db, written);
    this.checkpoints = new CheckpointStore(db, written);
    this.toolCalls = new ToolCallStore(db);
    this.settlements = new SettlementStore(db, written);
    this.pendingCalls = new PendingCallStore(db);
    this.actorLoad = new ActorLoadStore(db);
    this.retention = new RetentionStore(db);
    this.webhooks = new WebhookOutboxStore(db);
    this.deadlines = new DeadlineStore(db);
    this.drafts = new DraftStore(db);
  }

  /**
   * Hands every batch of frames this store writes, once committed, to `listener` (the live
   * streams, which then need not read back what this process just wrote). One listener.
   */
  onFramesWritten(listener: FramesWritten): void {
    this.framesWritten = listener;
  }

  /** Brings the schema up to date. */
  migrate(): Promise<void> {
    return migrate(this.db);
  }
}

/** Opens the store on a database and migrates it. */
export async function createStore(db: Database): Promise<Store> {
  const store = new Store(db);
  await store.migrate();
  return store;
}
