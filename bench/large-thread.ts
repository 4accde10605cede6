// Reading large threads back while others are served: `npx tsx bench/large-thread.ts` prints the
// rows; `npm run bench` includes them.
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore, openDatabase } from "prepick/server";
import { seedThread } from "../server/testing/seed-thread";
import { startServer } from "../tests/support/server-process";
import { type BenchRow, figure, median, quantile } from "./result";

// The review's thread: 150 turns of 60 KB (750 deltas of 80 characters each).
const TURNS = 150;
const DELTAS = 750;
const DELTA_CHARS = 80;
const READERS = 20;
const STALLED = 30;
const PROBE_MS = 25;
const ACTOR = "bench-reader";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads a response to its end, counting bytes without parsing them (a reader costs little here). */
async function drain(response: Response): Promise<number> {
  let bytes = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) return bytes;
    bytes += next.value.byteLength;
  }
}

function get(url: string, path: string): Promise<Response> {
  return fetch(`${url}${path}`, { headers: { "x-actor-id": ACTOR } });
}

/** The server process's resident memory, in MB. */
async function residentMb(pid: number): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/**
 * A thread of 150 turns of 60 KB on `npm start` (PGlite on disk, its own process): one page read,
 * the whole thread read page by page, a probe request's latency while 20 clients read the thread
 * again and again, and the server's memory while 30 clients request it and never read.
 */
export async function largeThread(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "prepick-bench-thread-"));
  const db = await openDatabase({ dataDir });
  await seedThread(
    await createStore(db),
    {
      threadId: "big",
      actorId: ACTOR,
      turns: TURNS,
      deltas: DELTAS,
      deltaChars: DELTA_CHARS,
    },
    "refactorer",
  );
  await db.close();
  const server = await startServer({ env: { PREPICK_DATA_DIR: dataDir } });
  try {
    // Warm up, then one page and the whole thread.
    await drain(await get(server.url, "/agent/threads/big"));
    let began = performance.now();
    const pageBytes = await drain(await get(server.url, "/agent/threads/big"));
    const pageMs = performance.now() - began;
    began = performance.now();
    let cursor: string | null = null;
    let pages = 0;
    let allBytes = 0;
    do {
      const response = await get(server.url, `/agent/threads/big${cursor ? `?cursor=${cursor}` : ""}`);
      const body = (await response.json()) as { nextCursor: string | null };
      allBytes += JSON.stringify(body).length;
      cursor = body.nextCursor;
      pages++;
    } while (cursor !== null);
    const allMs = performance.now() - began;

    // A probe every 25 ms while 20 clients read the first page over and over.
    let reading = true;
    let reads = 0;
    let resets = 0;
    const readers = Array.from({ length: READERS }, async () => {
      while (reading) {
        try {
          await drain(await get(server.url, "/agent/threads/big"));
          reads++;
        } catch {
          // A kept-alive socket the server closed as a request went out (undici retries nothing).
          resets++;
        }
      }
    });
    await sleep(500);
    const probes: number[] = [];
    const storeProbes: number[] = [];
    const until = Date.now() + 5_000;
    while (Date.now() < until) {
      let at = performance.now();
      await drain(await get(server.url, "/agent/agents"));
      probes.push(performance.now() - at);
      at = performance.now();
      await drain(await get(server.url, "/agent/approvals"));
      storeProbes.push(performance.now() - at);
      await sleep(PROBE_MS);
    }
    reading = false;
    await Promise.all(readers);

    // 30 clients that ask for the thread and never read a byte.
    const before = await residentMb(server.pid);
    const port = Number(new URL(server.url).port);
    const sockets = Array.from({ length: STALLED }, () => {
      const socket = connect({ port, host: "127.0.0.1" });
      socket.pause();
      socket.write(
        `GET /agent/threads/big?limit=200 HTTP/1.1\r\nhost: 127.0.0.1\r\nx-actor-id: ${ACTOR}\r\n\r\n`,
      );
      return socket;
    });
    await sleep(5_000);
    const stalled = await residentMb(server.pid);
    for (const socket of sockets) socket.destroy();

    const probeLine = (values: number[]) =>
      `${figure(median(values), "ms", 1)} / ${figure(quantile(values, 0.99), "ms", 1)} / ${figure(Math.max(...values), "ms", 1)}`;
    const p99 = quantile(probes, 0.99);
    return [
      {
        id: "thread.first-page",
        metric: `a thread of ${TURNS} turns of 60 KB: the first page (50 turns), read whole`,
        baseline: "—",
        history: {
          figure: "9.2 MB in 0.8 s, the thread whole before it had pages",
          commit: "5d018d6",
          date: "2026-12-02",
        },
        ours: `${figure(pageBytes / 1e6, "MB", 1)} in ${figure(pageMs, "ms", 0)}`,
        ratio: "—",
        target: "—",
        pass: "reported",
      },
      {
        id: "thread.whole",
        metric: `the same thread whole, page by page (${pages} pages)`,
        baseline: "—",
        ours: `${figure(allBytes / 1e6, "MB", 1)} in ${figure(allMs, "ms", 0)}`,
        ratio: "—",
        target: "—",
        pass: "reported",
      },
      {
        id: "thread.probe-while-read",
        metric: `a probe (GET /agent/agents) while ${READERS} clients read that page, p50 / p99 / max (${probes.length} probes, ${reads} reads, ${resets} reset)`,
        baseline: "—",
        history: { figure: "13 s, before pages and streaming", commit: "5d018d6", date: "2026-12-02" },
        ours: probeLine(probes),
        ratio: "—",
        target: "p99 < 100 ms",
        pass: p99 < 100,
      },
      {
        id: "thread.store-probe-while-read",
        metric: `a probe that reads the store (GET /agent/approvals) meanwhile, p50 / p99 / max`,
        baseline: "—",
        ours: probeLine(storeProbes),
        ratio: "—",
        target: "—",
        pass: "reported",
      },
      {
        id: "thread.memory-stalled-readers",
        metric: `server memory with ${STALLED} clients that request 200 turns and never read`,
        baseline: "—",
        history: { figure: "494 MB → 1,238 MB, before streaming", commit: "5d018d6", date: "2026-12-02" },
        ours: `${figure(before, "MB", 0)} → ${figure(stalled, "MB", 0)}`,
        ratio: "—",
        target: "—",
        pass: "reported",
      },
    ];
  } catch (error) {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}; the server said: ${server.stderr().slice(-2_000)}`,
    );
  } finally {
    await server.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await largeThread())
    console.log(`${row.metric}: ${row.ours} (${row.target}, ${row.pass})`);
  process.exit(0);
}
