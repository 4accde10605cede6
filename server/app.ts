import { resolve } from "node:path";
import type { LanguageModel } from "ai";
import { type Context, Hono } from "hono";
import { loadPatternEngine } from "prepick/core";
import { checkAgents } from "./agents/check-agents";
import type { AgentDefinition, AgentModuleOptions } from "./agents/types";
import type { Database } from "./database/database";
import { openDatabase } from "./database/open-database";
import { type ActorVariables, type Authenticate, actorMiddleware, pageCookieMiddleware } from "./http/actor";
import { agUiRoute } from "./http/ag-ui/ag-ui-route";
import { chatRoute } from "./http/chat-route";
import type { RouteContext } from "./http/context";
import { corsMiddleware } from "./http/cors";
import { crossSiteGuard } from "./http/cross-site-guard";
import { DEFAULT_INBOX_POLL_MS } from "./http/inbox-stream";
import { readRoutes } from "./http/read-routes";
import { runRoutes } from "./http/run-routes";
import { staticRoutes } from "./http/static-routes";
import { storableUrlMiddleware } from "./http/storable-url";
import { threadRoute } from "./http/thread-route";
import { toolCallRoutes } from "./http/tool-call-routes";
import { Worker } from "./loop/worker";
import { resolveModel } from "./model/resolve-model";
import { INBOX_CHANNEL } from "./store/channels";
import { createStore, type Store } from "./store/store";
import { FrameHub } from "./stream/frame-hub";

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
  /** How long a worker's claim on a run lasts without renewal, in ms (default 30 000). */
  leaseMs?: number;
  /**
   * How often each process looks for ready runs whose notification was lost, in ms (default
   * 2 000): a safety net only, since a run that becomes ready is claimed at once by a process
   * with room, and expired leases are looked for on their own, every half second at most.
   */
  sweepMs?: number;
  /**
   * The most runs one process holds at once (`PREPICK_MAX_RUNS`, default 500). Runs mostly wait
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
   * How often an inbox feed reads the store when no notification came, in ms
   * (`PREPICK_INBOX_POLL_MS`, default 10 000): it only bounds the delay of a lost notification.
   */
  inboxPollMs?: number;
}

/** A running reference server without its HTTP listener: `app.fetch` serves requests. */
export interface PrepickApp {
  /** The Hono app. */
  app: Hono<{ Variables: ActorVariables }>;
  /** The store. */
  store: Store;
  /** The hosted agents. */
  agents: readonly AgentDefinition[];
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
  const agents = checkAgents(options.agents, options);
  const moduleModel: LanguageModel =
    options.model ?? resolveModel(process.env, { latencyMs: options.scriptedLatencyMs ?? 0 });
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
  const hub = new FrameHub(store);
  await hub.start();
  const inboxHub = new FrameHub(store, INBOX_CHANNEL);
  await inboxHub.start();
  const worker = new Worker({
    store,
    owner: `process-${process.pid}-${crypto.randomUUID()}`,
    agents: new Map(agents.map((agent) => [agent.name, agent])),
    modelFor: (agent) => agent.model ?? moduleModel,
    ...(options.approvalPolicy ? { approvalPolicy: options.approvalPolicy } : {}),
    leaseMs: options.leaseMs ?? 30_000,
    sweepMs: options.sweepMs ?? 2_000,
    maxRuns: options.maxRuns ?? 500,
    ...(options.stopGraceMs !== undefined ? { stopGraceMs: options.stopGraceMs } : {}),
  });
  await worker.start();
  const closing = new AbortController();
  const context: RouteContext = {
    store,
    worker,
    hub,
    inboxHub,
    agents,
    closing: closing.signal,
    inboxPollMs: options.inboxPollMs ?? DEFAULT_INBOX_POLL_MS,
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
    console.error(`Prepick: ${c.req.method} ${c.req.path} failed:`, error);
    return c.json({ error: "The server failed to handle the request." }, 500);
  });
  let closed: Promise<void> | undefined;
  return {
    app,
    store,
    agents,
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
        await worker.stop();
        await hub.stop();
        await inboxHub.stop();
        if (ownsDatabase) await db.close();
      })();
      return closed;
    },
  };
}
