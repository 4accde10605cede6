import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { PeerFigures } from "./peers/measure";
import { type BenchRow, figure, median, quantile } from "./result";
import { benchDatabase, benchPostgresDataDir } from "./store-under-test";

const run = promisify(execFile);
const PEERS = new URL("./peers/", import.meta.url);
/** Latency samples, parked workflows and concurrent clients: the same sizes as our own rows. */
export const PEER_SIZES = { samples: 150, parked: 1_000, clients: 10 } as const;

/** What every peer measured, by name (`dbos`, `langgraph-sync`, `langgraph-async`, `mastra`). */
export type PeerResults = Record<string, PeerFigures>;

let measured: Promise<PeerResults> | undefined;

async function peer(script: string): Promise<PeerResults> {
  const url = await benchDatabase(script);
  const pgdata = (await benchPostgresDataDir("postgres")) ?? "";
  const { stdout } = await run(
    process.execPath,
    [
      "--import",
      "tsx",
      fileURLToPath(new URL(`${script}.ts`, PEERS)),
      url,
      ...Object.values(PEER_SIZES).map(String),
    ],
    {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      timeout: 900_000,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, PREPICK_BENCH_PGDATA: pgdata },
    },
  );
  const output = stdout.trim();
  return JSON.parse(output.slice(output.lastIndexOf("\n") + 1)) as PeerResults;
}

/**
 * Measures every peer afresh, each in a child process of its own on a database of its own on the
 * bench's PostgreSQL server. The first measurement of a bench run is also the one the rows that
 * report the peers' own figures read ({@link peerResults}).
 */
export function measurePeers(): Promise<PeerResults> {
  const results = (async () => {
    if (!existsSync(new URL("node_modules", PEERS))) {
      throw new Error("the peers are not installed: run `npm run bench:peers` first");
    }
    const figures: PeerResults = {};
    for (const script of ["dbos", "langgraph", "mastra"]) Object.assign(figures, await peer(script));
    return figures;
  })();
  measured ??= results;
  return results;
}

/** The bench run's first measurement of the peers, made now if none was. */
export function peerResults(): Promise<PeerResults> {
  return measured ?? measurePeers();
}

/** Each peer's own answer → next step, for reading ours against. */
export async function peerLatencyRows(): Promise<BenchRow[]> {
  const peers = await peerResults();
  return Object.entries(peers).map(([name, figures]) => ({
    id: `peers.answer-to-next-step.${name}`,
    metric: `${name}: answer → the workflow's next step, p50 / p99, the bench run's first measurement of the peers (PostgreSQL)`,
    baseline: "—",
    ours: `${figure(median(figures.latencies), "ms")} / ${figure(quantile(figures.latencies, 0.99), "ms")}`,
    ratio: "—",
    target: "—",
    pass: "reported",
  }));
}

const PEER_LABELS: Record<string, string> = {
  dbos: "DBOS",
  "langgraph-sync": "LangGraph, durability sync",
  "langgraph-async": "LangGraph, durability async",
  mastra: "Mastra",
};

/** A reading of CPU per run, as a table cell: the main thread's, then PostgreSQL's. */
export function cpuText(cpu: { thread: number; postgres: number }): string {
  return `main thread ${figure(cpu.thread, "ms", 3)} + PostgreSQL ${figure(cpu.postgres, "ms", 3)}`;
}

/**
 * Each peer's burst (1 000 workflows of one 1 s step started at once, total ÷ one alone) and its
 * CPU per run in the burst and in the answered phase, for reading ours against.
 */
export async function peerBurstRows(): Promise<BenchRow[]> {
  const peers = await peerResults();
  return Object.entries(peers).map(([name, figures]) => {
    const { burst, answeredCpu } = figures;
    return {
      id: `burst.peers.${name}`,
      metric: `${PEER_LABELS[name] ?? name}: ${burst.runs.toLocaleString("en")} workflows of one 1 s step started at once, total ÷ one alone; CPU per run, burst / answered; the bench run's first measurement of the peers (PostgreSQL)`,
      baseline: `${figure(burst.oneMs, "ms", 0)} (one alone)`,
      ours: `${figure(burst.allMs, "ms", 0)}; burst: ${cpuText(burst.cpu)}; answered: ${cpuText(answeredCpu)}`,
      ratio: figure(burst.allMs / burst.oneMs, "×"),
      target: "—",
      pass: "reported",
    };
  });
}
