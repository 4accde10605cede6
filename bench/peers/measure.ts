// What every peer's benchmark measures, the same way for each: a workflow parked waiting for an
// answer, the answer sent, and the moment the workflow's next step begins (recorded inside that
// step); and a burst of workflows started at once whose one step waits a second. Run as a child
// process of `npm run bench` (one per peer), printing its figures as JSON.
import { type CpuReading, cpuPerRun, readCpu } from "../process-cpu";

/** One peer's way of parking a workflow on an answer and of sending it the answer. */
export interface Peer {
  /** Starts workflow `id` and resolves once it waits for its answer, durably. */
  park(id: string): Promise<void>;
  /** Sends workflow `id` its answer, the way an HTTP handler taking a person's answer would. */
  answer(id: string): Promise<void>;
  /** Runs workflow `id` to its end: one durable step that waits `ms` (a model call's wait). */
  sleeper(id: string, ms: number): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** What one peer measured. */
export interface PeerFigures {
  /** Answer sent → the next step begins, each sample, in ms. */
  latencies: number[];
  /** Parked workflows resumed by concurrent clients, per second, counted when each next step began. */
  resumesPerSecond: number;
  /** The slowest of those, from its answer call's return to its next step, in ms (negative: before it). */
  slowestBacklogMs: number;
  /** CPU per answered workflow over the throughput phase, from the first answer to the last next step. */
  answeredCpu: CpuReading;
  /** `runs` workflows of one 1 s step started at once: one alone, all of them, and CPU per run. */
  burst: { runs: number; oneMs: number; allMs: number; cpu: CpuReading };
}

/** The burst's size and its step's wait: the same as our own burst row's. */
export const BURST = { runs: 1_000, stepMs: 1_000 } as const;

const continued = new Map<string, (at: number) => void>();
const continuedAt = new Map<string, number>();

/** Called by a peer's next step, first thing: the workflow `id` continued now. */
export function markContinued(id: string): void {
  const at = performance.now();
  if (!continuedAt.has(id)) continuedAt.set(id, at);
  continued.get(id)?.(at);
}

function whenContinued(id: string): Promise<number> {
  const known = continuedAt.get(id);
  if (known !== undefined) return Promise.resolve(known);
  return new Promise((resolve) => continued.set(id, resolve));
}

/**
 * The latency samples (one workflow at a time), then the throughput: `parked` workflows parked
 * first, then answered by `clients` concurrent clients.
 */
export async function measure(
  peer: Peer,
  {
    samples,
    parked,
    clients,
    prefix,
    postgres,
  }: { samples: number; parked: number; clients: number; prefix: string; postgres?: string },
): Promise<PeerFigures> {
  const latencies: number[] = [];
  for (let index = 0; index < samples + 10; index++) {
    const id = `${prefix}-latency-${index}`;
    await peer.park(id);
    const next = whenContinued(id);
    const started = performance.now();
    await peer.answer(id);
    const at = await next;
    // The first few warm the peer's code paths and connections.
    if (index >= 10) latencies.push(at - started);
  }
  const ids = Array.from({ length: parked }, (_, index) => `${prefix}-load-${index}`);
  for (let from = 0; from < ids.length; from += 50) {
    await Promise.all(ids.slice(from, from + 50).map((id) => peer.park(id)));
  }
  const answeredAt = new Map<string, number>();
  const all = Promise.all(ids.map((id) => whenContinued(id)));
  let next = 0;
  const cpuBefore = readCpu(postgres);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < ids.length) {
        const id = ids[next++] as string;
        await peer.answer(id);
        answeredAt.set(id, performance.now());
      }
    }),
  );
  const ends = await all;
  const answeredCpu = cpuPerRun(cpuBefore, readCpu(postgres), parked);
  const last = Math.max(...ends);
  const slowestBacklogMs = Math.max(
    ...ids.map((id, index) => (ends[index] as number) - (answeredAt.get(id) ?? Number.NaN)),
  );
  const burst = await measureBurst(peer, prefix, postgres);
  await peer.close();
  return { latencies, resumesPerSecond: parked / ((last - started) / 1000), slowestBacklogMs, answeredCpu, burst };
}

/** One sleeper alone, then {@link BURST} of them started at once, each until it ended. */
async function measureBurst(peer: Peer, prefix: string, postgres: string | undefined): Promise<PeerFigures["burst"]> {
  // The first warms the peer's code path for this workflow.
  await peer.sleeper(`${prefix}-burst-warm`, BURST.stepMs);
  const oneStarted = performance.now();
  await peer.sleeper(`${prefix}-burst-one`, BURST.stepMs);
  const oneMs = performance.now() - oneStarted;
  const before = readCpu(postgres);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: BURST.runs }, (_, index) => peer.sleeper(`${prefix}-burst-${index}`, BURST.stepMs)),
  );
  const allMs = performance.now() - started;
  return { runs: BURST.runs, oneMs, allMs, cpu: cpuPerRun(before, readCpu(postgres), BURST.runs) };
}

/**
 * Reads the arguments every peer script takes: the database URL, the sizes, and the PostgreSQL
 * server's data folder (`PREPICK_BENCH_PGDATA`), whose processes' CPU is counted.
 */
export function readArguments(): {
  url: string;
  samples: number;
  parked: number;
  clients: number;
  postgres?: string;
} {
  const [url, samples = "150", parked = "1000", clients = "10"] = process.argv.slice(2);
  if (!url) throw new Error("usage: <peer>.ts <postgres url> [samples] [parked] [clients]");
  const postgres = process.env.PREPICK_BENCH_PGDATA;
  return {
    url,
    samples: Number(samples),
    parked: Number(parked),
    clients: Number(clients),
    ...(postgres ? { postgres } : {}),
  };
}

/** Waits `ms`: a step's stand-in for a model call. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Prints the figures for the parent process and exits (peers may hold timers open). */
export function report(figures: Record<string, PeerFigures>): never {
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  process.exit(0);
}
