// The process entry of `npm start`: the reference server with the demo agents, or the agents of
// the module PREPICK_AGENTS_MODULE names.
import { resolve } from "node:path";
import { DEMO_AGENTS } from "./agents/demo-agents";
import { loadAgentsModule } from "./agents-module";
import { parseCorsOrigins } from "./http/cors";
import { createServer } from "./server";

function readPort(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return 3000;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, not ${JSON.stringify(raw)}`);
  }
  return port;
}

function readLease(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const lease = Number(raw);
  if (!Number.isInteger(lease) || lease < 100) {
    throw new Error(
      `PREPICK_LEASE_MS must be a whole number of milliseconds, at least 100, not ${JSON.stringify(raw)}`,
    );
  }
  return lease;
}

async function main(): Promise<void> {
  const leaseMs = readLease(process.env.PREPICK_LEASE_MS);
  const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;
  const agentsModule = process.env.PREPICK_AGENTS_MODULE?.trim() || undefined;
  const corsOrigins = parseCorsOrigins(process.env.PREPICK_CORS_ORIGINS);
  const server = await createServer({
    corsOrigins,
    agents: agentsModule ? await loadAgentsModule(agentsModule) : DEMO_AGENTS,
    port: readPort(process.env.PORT),
    ...(leaseMs !== undefined ? { leaseMs } : {}),
    host: process.env.HOST?.trim() || "127.0.0.1",
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
