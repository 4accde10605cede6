import type { FaultCluster } from "./fault-database";

const TABLES = [
  "prepick_threads",
  "prepick_runs",
  "prepick_checkpoints",
  "prepick_tool_calls",
  "prepick_frames",
  "prepick_usage",
];

/** Every row of every table the server writes, in a stable order: what "no row changed" compares. */
export async function tableSnapshot(cluster: FaultCluster, url: string): Promise<Record<string, unknown[]>> {
  const snapshot: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    snapshot[table] = await cluster.query(url, `SELECT * FROM ${table} ORDER BY 1, 2`);
  }
  return snapshot;
}
