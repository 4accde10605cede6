// Every benchmark `npm run bench` runs, in the table's order, with the rows each one writes.
// A new benchmark is one entry here; its rows carry one of the ids it declares.
import type { BenchRow } from "./result";

/** One benchmark: what `--only` calls it, the row ids it writes, and how to run it. */
export interface Benchmark {
  /** The name `npm run bench -- --only <key>` takes, kebab-case. */
  key: string;
  /**
   * Every row id the benchmark can write, in the table's order: `<area>.<what>`, lowercase, with
   * no figure in it. A run writes some or all of them; a failed run writes each as not measured.
   */
  metrics: readonly string[];
  /** Measures, and returns the rows (each `id` one of `metrics`). Imported only when run. */
  run: () => Promise<BenchRow | BenchRow[]>;
}

const PEERS = ["dbos", "langgraph-sync", "langgraph-async", "mastra"] as const;

export const BENCHMARKS: readonly Benchmark[] = [
  {
    key: "size",
    metrics: ["size.up-front", "size.on-first-need"],
    run: async () => (await import("./bundle-size")).bundleSize(),
  },
  {
    key: "keystroke-renders",
    metrics: ["renders.per-keystroke"],
    run: async () => (await import("./keystroke-renders")).keystrokeRenders(),
  },
  {
    key: "transcript-cost",
    metrics: ["transcript.hook-per-delta", "transcript.commit-per-delta", "renders.per-delta"],
    run: async () => (await import("./transcript-cost")).transcriptCost(),
  },
  {
    key: "fold-cost",
    metrics: ["fold.frames-per-second"],
    run: async () => (await import("./fold-cost")).foldCost(),
  },
  {
    key: "answer-latency-pglite",
    metrics: ["answer.continued-p50.pglite", "answer.continued-p99.pglite", "answer.acknowledged-p50.pglite"],
    run: async () => (await import("./answer-latency")).answerLatency("pglite"),
  },
  {
    key: "answer-latency-postgres",
    metrics: [
      "answer.continued-p50.postgres",
      "answer.continued-p99.postgres",
      "answer.acknowledged-p50.postgres",
      "answer.continued-p50.against-dbos",
    ],
    run: async () => {
      const [{ answerLatency }, { inPeerRounds }] = await Promise.all([
        import("./answer-latency"),
        import("./peer-rounds"),
      ]);
      return inPeerRounds("answer.continued-p50.against-dbos", (peers) =>
        answerLatency("postgres", async () => {
          const dbos = (await peers()).dbos;
          if (!dbos) throw new Error("DBOS was not measured");
          return dbos.latencies;
        }),
      );
    },
  },
  {
    key: "peer-latency",
    metrics: PEERS.map((peer) => `peers.answer-to-next-step.${peer}`),
    run: async () => (await import("./peers")).peerLatencyRows(),
  },
  {
    key: "throughput-pglite",
    metrics: ["cpu.per-run.answered.pglite", "throughput.continued-runs.pglite", "throughput.backlog.pglite"],
    run: async () => (await import("./answer-throughput")).answerThroughput("pglite"),
  },
  {
    key: "throughput-postgres",
    metrics: [
      // Mastra and DBOS first: the two with targets.
      "cpu.per-run.answered.postgres",
      ...["mastra", "dbos", "langgraph-sync", "langgraph-async"].map(
        (peer) => `throughput.continued-runs.against-${peer}`,
      ),
      "throughput.backlog.postgres",
    ],
    run: async () => {
      const [{ answerThroughput }, { inPeerRounds }] = await Promise.all([
        import("./answer-throughput"),
        import("./peer-rounds"),
      ]);
      return inPeerRounds("throughput.continued-runs.against-dbos", (peers) =>
        answerThroughput("postgres", peers),
      );
    },
  },
  {
    key: "statements",
    metrics: ["statements.started-run", "statements.answered-intake"],
    run: async () => (await import("./statements")).statementsPerRun(),
  },
  {
    key: "burst-postgres",
    metrics: ["burst.postgres", "cpu.per-run.burst.postgres"],
    run: async () => {
      const [{ runBurst }, { inPeerRounds }] = await Promise.all([
        import("./run-burst"),
        import("./peer-rounds"),
      ]);
      return inPeerRounds("burst.postgres", (peers) => runBurst("postgres", peers));
    },
  },
  {
    key: "burst-pglite",
    metrics: ["burst.pglite", "cpu.per-run.burst.pglite"],
    run: async () => (await import("./run-burst")).runBurst("pglite"),
  },
  {
    key: "peer-burst",
    metrics: PEERS.map((peer) => `burst.peers.${peer}`),
    run: async () => (await import("./peers")).peerBurstRows(),
  },
  {
    key: "model-call",
    metrics: [
      "model-call.cpu.streamtext",
      "model-call.cpu.streamlanguagemodelcall",
      "model-call.cpu.dostream",
    ],
    run: async () => (await import("./model-call-cost")).modelCallCost(),
  },
  {
    key: "crash-recovery",
    metrics: ["crash-recovery.postgres"],
    run: async () => (await import("./crash-recovery")).crashRecovery(),
  },
  {
    key: "parked-runs",
    metrics: ["parked.resident-memory", "parked.first-answer", "parked.store-bytes-per-run"],
    run: async () => (await import("./parked-runs")).parkedRuns(),
  },
  {
    key: "large-thread",
    metrics: [
      "thread.first-page",
      "thread.whole",
      "thread.probe-while-read",
      "thread.store-probe-while-read",
      "thread.memory-stalled-readers",
    ],
    run: async () => (await import("./large-thread")).largeThread(),
  },
  {
    key: "lighthouse",
    metrics: [
      "lighthouse.performance",
      "lighthouse.lcp",
      "lighthouse.tbt",
      "lighthouse.cls",
      "lighthouse.script-bytes",
      "lighthouse.best-practices",
    ],
    run: async () => (await import("./lighthouse")).lighthouseRows(),
  },
];

/** Every row id some benchmark declares, in the table's order. */
export function declaredMetrics(): string[] {
  return BENCHMARKS.flatMap((benchmark) => benchmark.metrics);
}

/** The benchmarks the command line names (`--only a,b` or `--only=a,b`), or all of them. */
export function selectBenchmarks(args: readonly string[]): readonly Benchmark[] {
  const at = args.findIndex((arg) => arg === "--only" || arg.startsWith("--only="));
  if (at === -1) return BENCHMARKS;
  const flag = args[at] as string;
  const keys = (flag.includes("=") ? flag.slice("--only=".length) : (args[at + 1] ?? "")).split(",");
  const unknown = keys.filter((key) => !BENCHMARKS.some((benchmark) => benchmark.key === key));
  if (unknown.length > 0 || keys.join() === "") {
    throw new Error(
      `--only takes benchmark keys separated by commas; "${unknown.join(",")}" is none of: ${BENCHMARKS.map((benchmark) => benchmark.key).join(", ")}`,
    );
  }
  return BENCHMARKS.filter((benchmark) => keys.includes(benchmark.key));
}
