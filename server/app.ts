import { resolve } from "node:path";
import type { LanguageModel } from "ai";
import { type Context, Hono } from "hono";
import { loadPatternEngine } from "prepick/core";
import { checkAgents, isTimeoutMs, MAX_TIMEOUT_MS } from "./agents/check-agents";
import type { AgentDefinition, AgentModuleOptions } from "./agents/types";
import type { Database } from "./database/database";
import { openDatabase } from "./database/open-database";
import { isStoreUnavailable } from "./database/store-unavailable";
import { type ActorVariables, type Authenticate, actorMiddleware, pageCookieMiddleware } from "./http/actor";
import { agUiRoute } from "./http/ag-ui/ag-ui-route";
import { chatRoute } from "./http/chat-route";
import type { RouteContext } from "./http/context";
import { corsMiddleware } from "./http/cors";
import { crossSiteGuard } from "./http/cross-site-guard";
import { hostCheck, isLoopbackAddress } from "./http/host-check";
import { DEFAULT_INBOX_POLL_MS } from "./http/inbox-stream";
import { OpenFeeds } from "./http/open-feeds";
import { readRoutes } from "./http/read-routes";
import { runRoutes } from "./http/run-routes";
import { staticRoutes } from "./http/static-routes";
import { storableUrlMiddleware } from "./http/storable-url";
import { threadRoute } from "./http/thread-route";
import { toolCallRoutes } from "./http/tool-call-routes";
import { logError } from "./log";
import { type CrashHooks, NO_CRASH_HOOKS } from "./loop/crash-hooks";
import { DeadlineWatch } from "./loop/deadline-watch";
import { callableModel } from "./loop/model-call";
import { Worker } from "./loop/worker";
import { resolveModel } from "./model/resolve-model";
import { INBOX_CHANNEL } from "./store/channels";
import { sweepRetention } from "./store/retention";
import { createStore, type Store } from "./store/store";
import type { DeliveryStatus, OutboxRow } from "./store/webhook-outbox";
import { FrameHub } from "./stream/frame-hub";
import { RunFeeds } from "./stream/run-feeds";
import { checkWebhooks, type WebhookDeliveryOptions, type WebhookEndpoint } from "./webhooks/webhook-options";
import { linksUnder } from "./webhooks/webhook-payload";
import { WebhookSender } from "./webhooks/webhook-sender";

/** Everything the reference server can be configured with. */
export interface PrepickOptions extends AgentModuleOptions {
  /** An open database; otherwise one is opened from `databaseUrl` or `dataDir`. */
  database?: Database;
  /** A PostgreSQL connection string (`DATABASE_URL`); wins over `dataDir`. */
  databaseUrl?: string;
  /** PGlite's folder on disk (`PREPICK_DATA_DIR`); leave out for an in-memory store. */
  dataDir?: string;
  /**
   * Decides who makes a request (a session, a token); an undefined or empty id answers 401. When
   * given, neither `x-actor-id` nor the `prepick_actor` cookie is read. Default: the header (while
   * trusted), else the cookie, which is local identity, not authentication.
   */
  authenticate?: Authenticate;
  /**
   * Whether `x-actor-id` names the actor (`PREPICK_TRUST_ACTOR_HEADER`, default true). It is
   * whatever the client claims: fine for development and tests, never for a server others reach.
   */
  trustActorHeader?: boolean;
  /** The built demo page served at `/` (default `dist/demo`). */
  demoDir?: string;
  /** The registry JSON served at `/r/*` (default `public/r`). */
  registryDir?: string;
  /**
   * Origins whose pages may call `/agent/*` from another origin, with credentials
   * (`PREPICK_CORS_ORIGINS`), e.g. an app's dev server `http://localhost:5173`. Default none.
   */
  corsOrigins?: readonly string[];
  /**
   * The interface the listener binds (`createServer` passes its own). On a loopback one
   * (`127.0.0.1`, `::1`, `localhost`) the server answers only requests whose `Host` is a loopback
   * name or one of `allowedHosts` (421 otherwise), so a page reached by DNS rebinding is refused.
   */
  host?: string;
  /**
   * Host names the server answers besides loopback ones (`PREPICK_ALLOWED_HOSTS`), e.g. the name
   * a proxy in front forwards. When given, every other `Host` is refused (421), whatever the bind.
   */
  allowedHosts?: readonly string[];
  /** How long a worker's claim on a run lasts without renewal, in ms (default 30 000). */
  leaseMs?: number;
  /**
   * How often each process looks for ready runs whose notification was lost, in ms (default
   * 2 000): a safety net only, since a run that becomes ready is claimed at once by a process
   * with room, and expired leases are looked for on their own, every half second at most.
   */
  sweepMs?: number;
  /**
   * The most runs one process holds at once (`PREPICK_MAX_RUNS`, default 2 000). Runs mostly wait
   * on a model or a tool, so this is sized for those waits, not for CPUs; past it, runs stay
   * ready in the store and are claimed in order as runs end or park.
   */
  maxRuns?: number;
  /**
   * How long the embedded scripted model waits before each answer, in ms
   * (`PREPICK_SCRIPTED_LATENCY_MS`, default 0): makes runs wait on the model as real ones do.
   */
  scriptedLatencyMs?: number;
  /** How long closing waits for running runs, in ms (default 5 000). */
  stopGraceMs?: number;
  /**
   * Fault injection for the crash tests, called around every checkpoint (`server/main.ts` reads
   * `PREPICK_CRASH_AT` and `PREPICK_CRASH_BEFORE` into it). Leave out: the default does nothing.
   */
  crashHooks?: CrashHooks;
  /**
   * How long one model call may take, in ms, for agents that set no `timeouts.modelMs`
   * (`PREPICK_MODEL_TIMEOUT_MS`, default 300 000). Past it the run fails with `model-timeout`.
   */
  modelTimeoutMs?: number;
  /**
   * How long one tool handler may take, in ms, for agents and tools that set none
   * (`PREPICK_TOOL_TIMEOUT_MS`, default 300 000). Past it the call fails with `tool-timeout`.
   */
  toolTimeoutMs?: number;
  /**
   * How often an inbox feed reads the store when no notification came, in ms
   * (`PREPICK_INBOX_POLL_MS`, default 10 000): it only bounds the delay of a lost notification.
   */
  inboxPollMs?: number;
  /**
   * The most inbox feeds (`GET /agent/approvals/stream`) one actor may hold open in this process
   * (`PREPICK_MAX_FEEDS_PER_ACTOR`, default 8); past it a new one answers 429 with Retry-After.
   * A browser shares one feed between its tabs.
   */
  maxFeedsPerActor?: number;
  /**
   * The most runs one actor may have `ready` or `running` at once, across processes
   * (`PREPICK_MAX_ACTIVE_RUNS_PER_ACTOR`; default none). Past it a new turn answers 429 with
   * Retry-After. Parked runs wait on the person, not the server, and do not count.
   */
  maxActiveRunsPerActor?: number;
  /**
   * The most turns one actor may start in a minute, across processes
   * (`PREPICK_MAX_STARTS_PER_MINUTE`; default none). Past it a new turn answers 429 with the
   * seconds until one leaves the minute as Retry-After.
   */
  maxStartsPerMinute?: number;
  /**
   * How long a finished run keeps its frames and checkpoints, in ms (`PREPICK_RETENTION_DAYS`;
   * default forever). Past it they are removed but the run's first and last frame; the run, its
   * messages, tool calls and usage stay. Parked runs are never touched.
   */
  retentionMs?: number;
  /**
   * Endpoints told of events (a call starts waiting, a call settles, a run ends), signed per
   * Standard Webhooks, delivered at least once from an outbox written with each change
   * (`PREPICK_WEBHOOK_URL`, `PREPICK_WEBHOOK_SECRET`, `PREPICK_WEBHOOK_EVENTS`). Every process of
   * a deployment is started with the same list: the last one started registers it in the store.
   * Default none: no event is written.
   */
  webhooks?: readonly WebhookEndpoint[];
  /** Timeouts, retries and the outbox's retention of delivered events. */
  webhookDelivery?: WebhookDeliveryOptions;
  /**
   * The origin people reach the app at (`PREPICK_PUBLIC_URL`), e.g. `https://agents.example.com`:
   * the webhooks' links point under it (`/answer/<callId>`, `/?agent=&thread=`). Default the
   * server's own URL.
   */
  publicUrl?: string;
}

/** The operator's view of webhook delivery. */
export interface WebhookDeliveries {
  /** The outbox's rows, newest first: all, or those `pending`, `delivered` or `failing`; 100 at most by default. */
  list(options?: { status?: DeliveryStatus; limit?: number }): Promise<OutboxRow[]>;
}

/** How many inbox feeds one actor may hold open in one process, unless configured. */
const DEFAULT_FEEDS_PER_ACTOR = 8;

/** How long a client waits before trying again when the store cannot be reached, in seconds. */
const STORE_RETRY_AFTER_S = 2;

/** The default time limit of one model call, and of one tool handler: five minutes. */
export const DEFAULT_CALL_TIMEOUT_MS = 300_000;

/** A running reference server without its HTTP listener: `app.fetch` serves requests. */
export interface PrepickApp {
  /** The Hono app. */
  app: Hono<{ Variables: ActorVariables }>;
  /** The store. */
  store: Store;
  /** The hosted agents. */
  agents: readonly AgentDefinition[];
  /** Each webhook event's delivery, per endpoint: pending, delivered, or failing with the last status. */
  webhooks: WebhookDeliveries;
  /** Sets the origin links point under when `publicUrl` was not given (`createServer` does, once bound). */
  setOrigin(origin: string): void;
  /**
   * Shuts down: new requests get 503 with Retry-After, streams end, requests in flight finish
   * (for `stopGraceMs` at most), then the worker stops and the database closes if this app opened it.
   */
  close(): Promise<void>;
}

/**
 * Builds the reference server: checks the agents (a bad intake default stops start-up with a
 * message naming the agent, the question and the rule), opens and migrates the store, starts the
 * worker, and mounts the routes.
 */
export async function createApp(options: PrepickOptions): Promise<PrepickApp> {
  await loadPatternEngine();
  for (const name of [
    "maxFeedsPerActor",
    "maxActiveRunsPerActor",
    "maxStartsPerMinute",
    "retentionMs",
  ] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 1)) {
      throw new Error(`${name} must be a whole number, at least 1, not ${JSON.stringify(value)}`);
    }
  }
  for (const [name, value] of Object.entries(options.webhookDelivery ?? {})) {
    if (value !== undefined && !(Number.isSafeInteger(value) && value >= 1)) {
      throw new Error(
        `webhookDelivery.${name} must be a whole number of milliseconds, at least 1, not ${JSON.stringify(value)}`,
      );
    }
  }
  for (const name of ["modelTimeoutMs", "toolTimeoutMs"] as const) {
    const value = options[name];
    if (value !== undefined && !isTimeoutMs(value)) {
      throw new Error(
        `${name} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, not ${JSON.stringify(value)}`,
      );
    }
  }
  const agents = checkAgents(options.agents, options);
  const webhooks = checkWebhooks(options.webhooks ?? []);
  if (options.publicUrl !== undefined && !/^https?:\/\/[^/]/.test(options.publicUrl)) {
    throw new Error(
      `publicUrl must be an absolute http: or https: URL, not ${JSON.stringify(options.publicUrl)}`,
    );
  }
  let origin = options.publicUrl ?? "";
  const moduleModel: LanguageModel =
    options.model ?? resolveModel(process.env, { latencyMs: options.scriptedLatencyMs ?? 0 });
  // Each agent's model, checked now: a model the loop cannot call stops start-up, naming the agent.
  const models = new Map(
    agents.map((agent) => [agent.name, callableModel(agent, agent.model ?? moduleModel)]),
  );
  const ownsDatabase = options.database === undefined;
  const db =
    options.database ??
    (await openDatabase({
      ...(options.databaseUrl ? { url: options.databaseUrl } : {}),
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    }));
  const store = await createStore(db);
  // An embedded store this app opened is locked to this process, so runs left "running" were
  // orphaned by a crash: resume them now rather than after their leases expire.
  if (ownsDatabase && db.kind === "pglite") await store.runs.releaseOrphaned();
  const runFeeds = new RunFeeds(store);
  await runFeeds.start();
  const inboxHub = new FrameHub(store, INBOX_CHANNEL);
  await inboxHub.start();
  const crashHooks = options.crashHooks ?? NO_CRASH_HOOKS;
  const owner = `process-${process.pid}-${crypto.randomUUID()}`;
  const worker = new Worker({
    store,
    feeds: runFeeds,
    crashHooks,
    owner,
    agents: new Map(agents.map((agent) => [agent.name, agent])),
    modelFor: (agent) => models.get(agent.name) ?? callableModel(agent, moduleModel),
    ...(options.approvalPolicy ? { approvalPolicy: options.approvalPolicy } : {}),
    leaseMs: options.leaseMs ?? 30_000,
    sweepMs: options.sweepMs ?? 2_000,
    maxRuns: options.maxRuns ?? 2_000,
    ...(options.stopGraceMs !== undefined ? { stopGraceMs: options.stopGraceMs } : {}),
    timeouts: {
      modelMs: options.modelTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
      toolMs: options.toolTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    },
  });
  await worker.start();
  // Runs with an opt-in deadline expire at it, whichever process ran them.
  const deadlines = new DeadlineWatch(store);
  await deadlines.start();
  // The store's endpoints follow this process's configuration (none included), so the triggers
  // write events only while some process is configured to send them.
  await store.webhooks.register(webhooks);
  const sender =
    webhooks.length > 0
      ? new WebhookSender({
          ...options.webhookDelivery,
          store,
          owner,
          endpoints: webhooks,
          agents: new Map(agents.map((agent) => [agent.name, agent])),
          links: linksUnder(() => origin),
        })
      : undefined;
  await sender?.start();
  const stopRetention =
    options.retentionMs !== undefined
      ? sweepRetention(store, options.retentionMs, (error) => logError("pruning finished runs failed", error))
      : undefined;
  const closing = new AbortController();
  const context: RouteContext = {
    store,
    worker,
    runFeeds,
    inboxHub,
    agents,
    crashHooks,
    closing: closing.signal,
    inboxPollMs: options.inboxPollMs ?? DEFAULT_INBOX_POLL_MS,
    feeds: new OpenFeeds(options.maxFeedsPerActor ?? DEFAULT_FEEDS_PER_ACTOR),
    limits: {
      ...(options.maxActiveRunsPerActor !== undefined ? { activeRuns: options.maxActiveRunsPerActor } : {}),
      ...(options.maxStartsPerMinute !== undefined ? { startsPerMinute: options.maxStartsPerMinute } : {}),
    },
  };
  const app = new Hono<{ Variables: ActorVariables }>();
  // Shutting down: requests already in flight finish; new ones, and any that still fail because
  // the store closed under them, get 503 with Retry-After, never a 500.
  let draining = false;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const unavailable = (c: Context) =>
    c.json({ error: "The server is shutting down; try again shortly." }, 503, { "retry-after": "1" });
  // First of all, so that every answer a page on an allowed origin gets, a 503 while shutting
  // down included, carries the headers its browser needs to let the page read it. A preflight
  // carries no credentials and must not be refused for the lack of an actor.
  if (options.corsOrigins && options.corsOrigins.length > 0) {
    app.use("/agent/*", corsMiddleware(options.corsOrigins));
  }
  app.use("*", async (c, next) => {
    if (draining) return unavailable(c);
    inFlight += 1;
    try {
      await next();
    } finally {
      inFlight -= 1;
      if (inFlight === 0) drained?.();
    }
  });
  // Before anything reads the request: a page that reached this server under another site's name
  // is refused whole.
  const loopback = options.host !== undefined && isLoopbackAddress(options.host);
  if (loopback || (options.allowedHosts?.length ?? 0) > 0) {
    app.use("*", hostCheck({ loopback, hosts: options.allowedHosts ?? [] }));
  }
  app.use("*", storableUrlMiddleware());
  const corsOrigins = options.corsOrigins ?? [];
  // Before the actor check too: a request another site sent is refused before it can act or be
  // issued a cookie.
  app.use("/agent/*", crossSiteGuard(corsOrigins));
  app.use(
    "/agent/*",
    actorMiddleware({
      authenticate: options.authenticate,
      trustActorHeader: options.trustActorHeader ?? true,
      corsOrigins,
    }),
  );
  app.use("*", pageCookieMiddleware());
  chatRoute(app, context);
  agUiRoute(app, context);
  runRoutes(app, context);
  toolCallRoutes(app, context);
  readRoutes(app, context);
  threadRoute(app, context);
  staticRoutes(app, {
    demoDir: resolve(options.demoDir ?? "dist/demo"),
    registryDir: resolve(options.registryDir ?? "public/r"),
  });
  app.notFound((c) => c.json({ error: `No route ${c.req.method} ${c.req.path}.` }, 404));
  app.onError((error, c) => {
    if (draining) return unavailable(c);
    // The log line is JSON: a path holding %0a cannot start a line of its own. The person gets
    // the line's id, never the error's own text.
    const request = { method: c.req.method, path: c.req.path };
    if (isStoreUnavailable(error)) {
      const errorId = logError("store unavailable", error, request);
      return c.json(
        {
          error: "The server cannot reach its store just now; try again in a few seconds.",
          code: "store-unavailable",
          errorId,
        },
        503,
        { "retry-after": String(STORE_RETRY_AFTER_S) },
      );
    }
    const errorId = logError("request failed", error, request);
    return c.json({ error: "The server failed to handle the request.", code: "internal", errorId }, 500);
  });
  let closed: Promise<void> | undefined;
  return {
    app,
    store,
    agents,
    webhooks: { list: (query) => store.webhooks.list(query) },
    setOrigin(url) {
      if (options.publicUrl === undefined) origin = url;
    },
    close() {
      closed ??= (async () => {
        draining = true;
        closing.abort();
        // Streams end at once (closing); other requests get the grace period to finish.
        if (inFlight > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, options.stopGraceMs ?? 5_000);
            drained = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        await stopRetention?.();
        await deadlines.stop();
        await worker.stop();
        await sender?.stop();
        await runFeeds.stop();
        await inboxHub.stop();
        if (ownsDatabase) await db.close();
      })();
      return closed;
    },
  };
}
