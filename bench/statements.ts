import { createServer, type Database, DEMO_AGENTS } from "prepick/server";
import { parkRun } from "./park-run";
import type { BenchRow } from "./result";
import { openStoreUnderTest } from "./store-under-test";

/** What one statement did, read from its text and parameters. */
function label(sql: string, params: readonly unknown[]): string {
  if (sql.startsWith("BEGIN") || sql.startsWith("COMMIT")) return sql.split(" ")[0] ?? sql;
  if (/FROM prepick_tool_calls WHERE id = \$1$/.test(sql.trim())) return "read the pending row";
  if (sql.includes("settled AS ("))
    return "settle the row, record the signal and its frame, claim the run with its journal";
  if (sql.includes("INSERT INTO prepick_checkpoints")) {
    const names = (JSON.parse(String(params[1])) as { name: string }[]).map((entry) => entry.name);
    const frames = (JSON.parse(String(params[2])) as unknown[]).length;
    return `checkpoint ${names.join(", ")}${frames > 0 ? `, with ${frames} frames` : ""}`;
  }
  if (sql.includes("finished AS (")) return "finish the run, with its run-finish frame";
  if (/^SELECT frame FROM prepick_frames WHERE run_id = \$1 AND seq >/.test(sql.trim()))
    return "read the run's frames after the settlement";
  if (sql.includes("INSERT INTO prepick_frames")) return "frames the model streamed";
  // A statement with no name yet shows as itself, so the row never claims more than it knows.
  return `unnamed: ${sql.replace(/\s+/g, " ").slice(0, 60)}`;
}

/** A database that notes every statement sent to it (a transaction's BEGIN and COMMIT too). */
function noting(db: Database, log: string[]): Database {
  const isBackground = (sql: string) =>
    sql.includes("lease_until < now()") || sql.includes("jsonb_array_elements_text");
  return {
    ...db,
    kind: db.kind,
    query: async (sql, params = []) => {
      if (!isBackground(sql)) log.push(label(sql, params));
      return db.query(sql, params);
    },
    transaction: (work) =>
      db.transaction(async (tx) => {
        log.push("BEGIN");
        const result = await work({
          query: async (sql, params = []) => {
            log.push(label(sql, params));
            return tx.query(sql, params);
          },
        });
        log.push("COMMIT");
        return result;
      }),
    listen: (channel, onNotify) => db.listen(channel, onNotify),
    notify: (channel, payload) => db.notify(channel, payload),
    close: () => db.close(),
  };
}

/**
 * The statements one answered intake run costs, from the answer to the run's finish (one model
 * call), counted on PostgreSQL with nobody following the stream, each named by what it does.
 */
export async function statementsPerRun(): Promise<BenchRow> {
  const store = await openStoreUnderTest("postgres");
  const log: string[] = [];
  const server = await createServer({
    agents: DEMO_AGENTS,
    database: noting(store.db, log),
    port: 0,
    host: "127.0.0.1",
  });
  try {
    const run = await parkRun(server.url, "bench-statements");
    log.length = 0;
    const response = await fetch(`${server.url}/agent/tool-call/answer`, {
      method: "POST",
      headers: { "x-actor-id": "bench-statements", "content-type": "application/json" },
      body: JSON.stringify({ toolCallId: `intake-${run.runId}` }),
    });
    if (response.status !== 200) throw new Error(`the answer got ${response.status}`);
    for (let waited = 0; ; waited += 20) {
      const [row] = await store.db.query<{ status: string }>(
        "SELECT status FROM prepick_runs WHERE id = $1",
        [run.runId],
      );
      if (row?.status === "completed") break;
      if (waited > 30_000) throw new Error("the answered run did not finish");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const steps = log.map((step, index) => `${index + 1}. ${step}`).join("; ");
    return {
      id: "statements.answered-intake",
      metric: "Statements per answered intake run (answer to finish, one model call, PostgreSQL)",
      baseline: "—",
      ours: `${log.length}: ${steps}`,
      ratio: "—",
      target: "—",
      pass: "reported",
      history: {
        figure: "7 statements per answered intake run, before one statement settled an answer",
        commit: "962692d",
        date: "2026-12-02",
      },
    };
  } finally {
    await server.close();
    await store.dispose();
  }
}
