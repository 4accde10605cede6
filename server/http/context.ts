import type { Hono } from "hono";
import type { AgentDefinition } from "../agents/types";
import type { CrashHooks } from "../loop/crash-hooks";
import type { Worker } from "../loop/worker";
import type { Store } from "../store/store";
import type { FrameHub } from "../stream/frame-hub";
import type { RunFeeds } from "../stream/run-feeds";
import type { ActorVariables } from "./actor";
import type { OpenFeeds } from "./open-feeds";

/** What every route group needs. */
export interface RouteContext {
  /** The store. */
  store: Store;
  /** The worker that runs this process's runs. */
  worker: Worker;
  /** This process's live run frames, for stream followers. */
  runFeeds: RunFeeds;
  /** Wakes inbox feeds: its keys are actor ids. */
  inboxHub: FrameHub;
  /** The hosted agents, in configuration order (the first is the default). */
  agents: readonly AgentDefinition[];
  /** Fault injection around the checkpoints a request records (a signal, a run's start). */
  crashHooks: CrashHooks;
  /** The per-actor limits on starting turns; each unset is no limit. */
  limits: { activeRuns?: number; startsPerMinute?: number };
  /** The inbox feeds each actor holds open, capped. */
  feeds: OpenFeeds;
  /** Stops streams when the server closes. */
  closing: AbortSignal;
  /** How often an inbox feed reads the store without a notification, in ms. */
  inboxPollMs: number;
}

/** The Hono app type with the actor variable set. */
export type AgentApp = Hono<{ Variables: ActorVariables }>;
