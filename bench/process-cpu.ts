// CPU time, read the same way for every contender: this thread's (the event loop's, where a
// server's own work runs), and the PostgreSQL server's (its postmaster and every backend, the
// ones that exited included). Node built-ins only: the peers' package imports it too.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** CPU time spent so far, in ms, by this thread and by the PostgreSQL server. */
export interface CpuReading {
  /** This process's main thread. */
  thread: number;
  /** The PostgreSQL server's processes; 0 when none is watched. */
  postgres: number;
}

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  return ticksPerSecond;
}

/** utime, stime, cutime and cstime of a process, in clock ticks, and its parent's pid. */
function stat(pid: string): { parent: string; own: number; children: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name may hold spaces; the fields after its closing parenthesis are fixed.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const at = (index: number) => Number(fields[index - 3]);
    return { parent: fields[1] as string, own: at(14) + at(15), children: at(16) + at(17) };
  } catch {
    return undefined;
  }
}

/**
 * The CPU time of a PostgreSQL server, in ms: its postmaster's and every live child's, plus what
 * the children that already exited used (the postmaster reaps them, so it counts as its own).
 */
export function postgresCpuMs(dataDir: string): number {
  const postmaster = readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]?.trim() ?? "";
  const main = stat(postmaster);
  if (!main) return 0;
  let ticks = main.own + main.children;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || pid === postmaster) continue;
    const child = stat(pid);
    if (child?.parent === postmaster) ticks += child.own;
  }
  return (ticks / clockTicks()) * 1000;
}

/** Reads both clocks now; `dataDir` is the watched PostgreSQL server's, when there is one. */
export function readCpu(dataDir?: string): CpuReading {
  const { user, system } = process.threadCpuUsage();
  return { thread: (user + system) / 1000, postgres: dataDir ? postgresCpuMs(dataDir) : 0 };
}

/** The CPU used between two readings, per run, in ms. */
export function cpuPerRun(before: CpuReading, after: CpuReading, runs: number): CpuReading {
  return {
    thread: (after.thread - before.thread) / runs,
    postgres: (after.postgres - before.postgres) / runs,
  };
}
