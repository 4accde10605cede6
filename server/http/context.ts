import type { Hono } from "hono";
import type { AgentDefinition } from "../agents/types";
import type { Worker } from "../loop/worker";
import type { Store } from "../store/store";
import type { FrameHub } from "../stream/frame-hub";
import type { ActorVariables } from "./actor";
import type { OpenFeeds } from "./open-feeds";

/** What every route group needs. */
export interface RouteContext {
  /** The store. */
  store: Store;
  /** The worker that runs this process's runs. */
  worker: Worker;
  /** Wakes stream followers. */
  hub: FrameHub;
  /** Wakes inbox feeds: its keys are actor ids. */
  inboxHub: FrameHub;
  /** The hosted agents, in configuration order (the first is the default). */
  agents: readonly AgentDefinition[];
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
