// The process entry of `npm start`: the reference server with the demo agents, or the agents of
// the module PREPICK_AGENTS_MODULE names.
import { resolve } from "node:path";
import { DEMO_AGENTS } from "./agents/demo-agents";
import { type AgentsModule, loadAgentsModule } from "./agents-module";
import { parseCorsOrigins } from "./http/cors";
import { isLoopbackAddress, parseAllowedHosts } from "./http/host-check";
import { crashHooksFromEnv } from "./loop/crash-hooks";
import { createServer } from "./server";
import { webhooksFromEnv } from "./webhooks/webhook-options";

function readPort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return 3000;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, not ${JSON.stringify(raw)}`);
  }
  return port;
}

/** A whole number from the environment, at least `least`; undefined when unset. */
function readWhole(name: string, least: number, unit: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < least) {
    throw new Error(
      `${name} must be a whole number of ${unit}, at least ${least}, not ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

/** A yes/no setting from the environment; undefined when unset. */
function readSwitch(name: string): boolean | undefined {
  const raw = process.env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return undefined;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new Error(`${name} must be true or false, not ${JSON.stringify(process.env[name])}`);
}

async function main(): Promise<void> {
  const leaseMs = readWhole("PREPICK_LEASE_MS", 100, "milliseconds");
  const maxRuns = readWhole("PREPICK_MAX_RUNS", 1, "runs");
  const scriptedLatencyMs = readWhole("PREPICK_SCRIPTED_LATENCY_MS", 0, "milliseconds");
  const modelTimeoutMs = readWhole("PREPICK_MODEL_TIMEOUT_MS", 1, "milliseconds");
  const toolTimeoutMs = readWhole("PREPICK_TOOL_TIMEOUT_MS", 1, "milliseconds");
  const inboxPollMs = readWhole("PREPICK_INBOX_POLL_MS", 100, "milliseconds");
  const maxFeedsPerActor = readWhole("PREPICK_MAX_FEEDS_PER_ACTOR", 1, "feeds");
  const maxActiveRunsPerActor = readWhole("PREPICK_MAX_ACTIVE_RUNS_PER_ACTOR", 1, "runs");
  const maxStartsPerMinute = readWhole("PREPICK_MAX_STARTS_PER_MINUTE", 1, "turns");
  const retentionDays = readWhole("PREPICK_RETENTION_DAYS", 1, "days");
  const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
  const webhooks = webhooksFromEnv(process.env);
  const publicUrl = process.env.PREPICK_PUBLIC_URL?.trim() || undefined;
  const webhookRetryFirstMs = readWhole("PREPICK_WEBHOOK_RETRY_MS", 1, "milliseconds");
  const webhookTimeoutMs = readWhole("PREPICK_WEBHOOK_TIMEOUT_MS", 1, "milliseconds");
  const agentsModule = process.env.PREPICK_AGENTS_MODULE?.trim() || undefined;
  const corsOrigins = parseCorsOrigins(process.env.PREPICK_CORS_ORIGINS);
  const allowedHosts = parseAllowedHosts(process.env.PREPICK_ALLOWED_HOSTS);
  const trustActorHeader = readSwitch("PREPICK_TRUST_ACTOR_HEADER") ?? true;
  const loaded: AgentsModule = agentsModule
    ? await loadAgentsModule(agentsModule)
    : { agents: [...DEMO_AGENTS] };
  const host = process.env.HOST?.trim() || "127.0.0.1";
  if (!isLoopbackAddress(host) && !loaded.authenticate) {
    console.warn(
      `Prepick: listening on ${host} lets other machines reach this server, whose identity is local only` +
        (trustActorHeader ? " (x-actor-id is trusted: anyone can act as anyone)" : " (a browser cookie)") +
        ". Export authenticate from PREPICK_AGENTS_MODULE before exposing it.",
    );
  }
  const server = await createServer({
    corsOrigins,
    allowedHosts,
    trustActorHeader,
    agents: loaded.agents,
    ...(loaded.authenticate ? { authenticate: loaded.authenticate } : {}),
    port: readPort(process.env.PORT),
    ...(leaseMs !== undefined ? { leaseMs } : {}),
    ...(maxRuns !== undefined ? { maxRuns } : {}),
    ...(scriptedLatencyMs !== undefined ? { scriptedLatencyMs } : {}),
    ...(modelTimeoutMs !== undefined ? { modelTimeoutMs } : {}),
    ...(toolTimeoutMs !== undefined ? { toolTimeoutMs } : {}),
    ...(inboxPollMs !== undefined ? { inboxPollMs } : {}),
    ...(maxFeedsPerActor !== undefined ? { maxFeedsPerActor } : {}),
    ...(maxActiveRunsPerActor !== undefined ? { maxActiveRunsPerActor } : {}),
    ...(maxStartsPerMinute !== undefined ? { maxStartsPerMinute } : {}),
    ...(retentionDays !== undefined ? { retentionMs: retentionDays * 86_400_000 } : {}),
    webhooks,
    webhookDelivery: {
      ...(webhookRetryFirstMs !== undefined ? { retryFirstMs: webhookRetryFirstMs } : {}),
      ...(webhookTimeoutMs !== undefined ? { timeoutMs: webhookTimeoutMs } : {}),
    },
    ...(publicUrl ? { publicUrl } : {}),
    host,
    crashHooks: crashHooksFromEnv(process.env),
    ...(databaseUrl
      ? { databaseUrl }
      : { dataDir: resolve(process.env.PREPICK_DATA_DIR?.trim() || ".data") }),
  });
  console.log(`Prepick listening on http://127.0.0.1:${server.port}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (error) => {
        console.error(`Prepick: stopping on ${signal} failed:`, error);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error) => {
  console.error(`Prepick could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
