import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "prepick/server";
import { type ServerProcess, startServer } from "../tests/support/server-process";
import { type ParkedRun, parkRun } from "./park-run";
import { type BenchRow, figure, median } from "./result";
import { seedParkedRuns } from "./seed-parked-runs";

const PARKED = 100_000;
const ACTOR = "bench-parked";

/** The process's resident memory in MiB, from /proc. */
function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How often resident memory is sampled, how many samples in a row must agree, and within what. */
const SAMPLE_MS = 500;
const STEADY_SAMPLES = 16;
const STEADY_WITHIN_MIB = 2;
const SETTLE_LIMIT_MS = 60_000;

/**
 * Resident memory of a freshly started server once it has served one request and gone quiet:
 * the median of the first run of samples that agree within a few MiB. For some seconds after it
 * opens, V8 is still compiling the embedded engine's WebAssembly in the background, and resident
 * memory climbs by hundreds of MiB and falls back; a fixed wait reads that rise at a random point.
 */
async function settledMemory(server: ServerProcess): Promise<number> {
  await fetch(`${server.url}/agent/agents`, { headers: { "x-actor-id": ACTOR } }).then((r) => r.text());
  const samples: number[] = [];
  const began = performance.now();
  while (performance.now() - began < SETTLE_LIMIT_MS) {
    samples.push(residentMiB(server.pid));
    const recent = samples.slice(-STEADY_SAMPLES);
    if (recent.length === STEADY_SAMPLES && Math.max(...recent) - Math.min(...recent) <= STEADY_WITHIN_MIB) {
      return median(recent);
    }
    await sleep(SAMPLE_MS);
  }
  throw new Error(`resident memory did not settle within ${SETTLE_LIMIT_MS} ms: ${samples.join(", ")} MiB`);
}

/** How long the first answer after a restart takes, in ms. */
async function firstAnswer(server: ServerProcess, toolCallId: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${server.url}/agent/tool-call/answer`, {
    method: "POST",
    headers: { "x-actor-id": ACTOR, "content-type": "application/json" },
    body: JSON.stringify({ toolCallId }),
  });
  await response.text();
  if (response.status !== 200) throw new Error(`the first answer got ${response.status}`);
  return performance.now() - started;
}

/** The bytes the store's tables and their indexes take. */
async function storeBytes(db: Database): Promise<number> {
  const [row] = await db.query<{ bytes: number }>(
    `SELECT sum(pg_total_relation_size(oid))::bigint AS bytes FROM pg_class
     WHERE relkind = 'r' AND relname LIKE 'prepick\\_%'`,
  );
  return Number(row?.bytes ?? 0);
}

/** A store folder with one run parked on its intake, made by a real server that then stopped. */
async function folderWithOneParkedRun(folder: string): Promise<ParkedRun> {
  const server = await startServer({ env: { PREPICK_DATA_DIR: folder } });
  try {
    return await parkRun(server.url, ACTOR);
  } finally {
    await server.kill("SIGTERM");
  }
}

/**
 * Parked runs cost nothing: a server restarted over 100 000 parked runs against one restarted over
 * a single parked run, both on PGlite on disk (the embedded default, whose engine lives in the
 * server's own memory), as child processes so that resident memory is the server's alone.
 */
export async function parkedRuns(): Promise<BenchRow[]> {
  const root = await mkdtemp(join(tmpdir(), "prepick-bench-parked-"));
  try {
    const idleFolder = join(root, "one");
    const fullFolder = join(root, "many");
    const idleRun = await folderWithOneParkedRun(idleFolder);
    const fullRun = await folderWithOneParkedRun(fullFolder);
    const idleDb = await openDatabase({ dataDir: idleFolder });
    const idleBytes = await storeBytes(idleDb).finally(() => idleDb.close());
    const db = await openDatabase({ dataDir: fullFolder });
    let fullBytes: number;
    try {
      await seedParkedRuns(db, fullRun, PARKED - 1);
      await db.query("CHECKPOINT");
      fullBytes = await storeBytes(db);
    } finally {
      await db.close();
    }

    const idle = await startServer({ env: { PREPICK_DATA_DIR: idleFolder } });
    let idleMemory: number;
    let idleAnswer: number;
    try {
      idleMemory = await settledMemory(idle);
      idleAnswer = await firstAnswer(idle, `intake-${idleRun.runId}`);
    } finally {
      await idle.kill("SIGTERM");
    }
    const full = await startServer({ env: { PREPICK_DATA_DIR: fullFolder } });
    let fullMemory: number;
    let fullAnswer: number;
    try {
      fullMemory = await settledMemory(full);
      fullAnswer = await firstAnswer(full, `intake-${fullRun.runId}-c${PARKED - 1}`);
    } finally {
      await full.kill("SIGTERM");
    }
    const growth = fullMemory - idleMemory;
    return [
      {
        id: "parked.resident-memory",
        metric: `Resident memory with ${PARKED.toLocaleString("en")} parked runs (PGlite, after restart)`,
        baseline: `${figure(idleMemory, "MiB", 1)} (1 parked run)`,
        ours: figure(fullMemory, "MiB", 1),
        ratio: `${growth >= 0 ? "+" : "−"}${figure(Math.abs(growth), "MiB", 1)}`,
        target: "≤ +20 MiB",
        pass: growth <= 20,
      },
      {
        id: "parked.first-answer",
        metric: `First answer after a restart over ${PARKED.toLocaleString("en")} parked runs (PGlite)`,
        baseline: `${figure(idleAnswer, "ms", 1)} (1 parked run)`,
        ours: figure(fullAnswer, "ms", 1),
        ratio: figure(fullAnswer / idleAnswer, "×"),
        target: "< 1 s",
        pass: fullAnswer < 1_000,
      },
      {
        id: "parked.store-bytes-per-run",
        metric: `Store bytes per parked run (PGlite, tables and indexes, over ${PARKED.toLocaleString("en")})`,
        baseline: "—",
        ours: figure((fullBytes - idleBytes) / (PARKED - 1), "bytes", 0),
        ratio: "—",
        target: "—",
        pass: "reported",
      },
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await parkedRuns())
    console.log(`${row.metric}: ${row.ours} vs ${row.baseline} (${row.ratio}; ${row.target}, ${row.pass})`);
  process.exit(0);
}
