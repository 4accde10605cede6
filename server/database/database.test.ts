import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededPgliteFolder } from "../../tests/support/pglite-folder";
import { type PostgresCluster, startPostgres } from "../../tests/support/postgres";
import { waitFor } from "../../tests/support/wait-for";
import { inJsonbOrder, json } from "../store/json";
import { MIGRATIONS } from "../store/migrations";
import { createStore } from "../store/store";
import { LOCK_FILE } from "./data-dir-lock";
import type { Database } from "./database";
import { openDatabase } from "./open-database";

let cluster: PostgresCluster | undefined;
const folders: string[] = [];

beforeAll(async () => {
  cluster = await startPostgres("database_test");
});

afterAll(async () => {
  await cluster?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "prepick-db-"));
  folders.push(folder);
  return folder;
}

let databaseCount = 0;

/**
 * Each engine, with a clean slate for every test. PGlite takes seconds to open (the WASM compiled
 * in this worker, then its initdb), so each PGlite engine is opened once, in a hook before its
 * tests (`open`), never inside a test's own time, and its schema emptied between tests;
 * PostgreSQL gets a fresh database per test. `release` closes what `acquire` opened once the test
 * is done with it.
 */
interface Engine {
  open(): Promise<void>;
  acquire(): Promise<Database>;
  release(db: Database): Promise<void>;
  closeAll(): Promise<void>;
}

function sharedPglite(open: () => Promise<Database>): Engine {
  let shared: Promise<Database> | undefined;
  const acquire = () => {
    shared ??= open();
    return shared;
  };
  return {
    open: async () => {
      await acquire();
    },
    acquire,
    release: async (db) => {
      await db.query("DROP SCHEMA public CASCADE");
      await db.query("CREATE SCHEMA public");
    },
    closeAll: async () => {
      await (await shared)?.close();
    },
  };
}

const engines: Record<string, Engine> = {
  "PGlite in memory": sharedPglite(() => openDatabase({})),
  // An empty folder two levels down: the first open makes both and runs initdb there.
  "PGlite on disk": sharedPglite(() => openDatabase({ dataDir: join(tempFolder(), "nested", "store") })),
  PostgreSQL: {
    open: async () => {},
    acquire: async () => {
      if (!cluster) throw new Error("the PostgreSQL cluster did not start");
      databaseCount += 1;
      return openDatabase({ url: await cluster.createDatabase(`case_${databaseCount}`) });
    },
    release: (db) => db.close(),
    closeAll: async () => {},
  },
};

describe.each(Object.entries(engines))("%s", (_name, engine) => {
  beforeAll(() => engine.open());
  afterAll(() => engine.closeAll());

  async function withDatabase(test: (db: Database) => Promise<void>) {
    const db = await engine.acquire();
    try {
      await test(db);
    } finally {
      await engine.release(db);
    }
  }

  it("runs statements with $n parameters and returns plain rows read the same on every engine", () =>
    withDatabase(async (db) => {
      await db.query(
        "CREATE TABLE things (id text PRIMARY KEY, doc jsonb, list json, big int8, at timestamptz, day date, price numeric)",
      );
      const at = new Date(Date.UTC(2026, 0, 5, 10, 0, 0, 123));
      const inserted = await db.query("INSERT INTO things VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id", [
        "a",
        JSON.stringify({ answers: { scope: ["file"] }, skipped: false }),
        "[1,2]",
        42,
        at,
        "2026-01-05",
        "1.50",
      ]);
      expect(inserted).toEqual([{ id: "a" }]);
      await db.query("INSERT INTO things (id, doc, big, at) VALUES ($1, $2, $3, $4)", [
        "b",
        { nested: [1, "two"] },
        "9007199254740993",
        "2026-01-05T12:30:00+02:00",
      ]);

      const rows = await db.query("SELECT * FROM things ORDER BY id");
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(rows[0]).toEqual({
        id: "a",
        doc: { answers: { scope: ["file"] }, skipped: false },
        list: [1, 2],
        big: 42,
        at: "2026-01-05T10:00:00.123Z",
        day: "2026-01-05",
        price: "1.50",
      });
      expect(rows[1]).toMatchObject({
        doc: { nested: [1, "two"] },
        big: 9007199254740993n,
        at: "2026-01-05T10:30:00.000Z",
        day: null,
      });

      const [count] = await db.query<{ n: number; now: string }>(
        "SELECT count(*) AS n, now() AS now FROM things",
      );
      expect(count?.n).toBe(2);
      expect(count?.now).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(await db.query("SELECT $1::text AS echoed", ['it\'s "quoted"'])).toEqual([
        { echoed: 'it\'s "quoted"' },
      ]);
    }));

  it("gives jsonb back as inJsonbOrder says it will, key order included", () =>
    withDatabase(async (db) => {
      const value = {
        purged: "pages",
        hours: 24,
        nested: [{ zeta: 1, b: { yy: 2, x: 3, é: 4, e: 5 } }],
        "a long key": null,
        ab: "lone \ud800 surrogate",
        aa: true,
      };
      const [row] = await db.query<{ value: unknown }>("SELECT $1::jsonb AS value", [json(value)]);
      // What the journal gives a first run: written by `json`, read back in jsonb's order.
      const asStored = inJsonbOrder(JSON.parse(json(value)) as unknown);
      expect(JSON.stringify(asStored)).toBe(JSON.stringify(row?.value));
      // Not the order it was written in: a first run reading the value as written would differ.
      expect(JSON.stringify(row?.value)).not.toBe(JSON.stringify(value));
      expect(Object.keys(asStored as object)).toEqual([
        "aa",
        "ab",
        "hours",
        "nested",
        "purged",
        "a long key",
      ]);
    }));

  it("reports SQL errors with the server's message", () =>
    withDatabase(async (db) => {
      await expect(db.query("SELECT * FROM missing_table")).rejects.toThrow(/missing_table/);
      await db.query("CREATE TABLE unique_ids (id text PRIMARY KEY)");
      await db.query("INSERT INTO unique_ids VALUES ($1)", ["x"]);
      await expect(db.query("INSERT INTO unique_ids VALUES ($1)", ["x"])).rejects.toThrow(/duplicate key/);
      expect(await db.query("SELECT count(*) AS n FROM unique_ids")).toEqual([{ n: 1 }]);
    }));

  it("commits a transaction's work when it resolves and returns its result", () =>
    withDatabase(async (db) => {
      await db.query("CREATE TABLE journal (run text, name text)");
      const result = await db.transaction(async (tx) => {
        await tx.query("INSERT INTO journal VALUES ($1, $2)", ["r1", "persist:run:start"]);
        await tx.query("INSERT INTO journal VALUES ($1, $2)", ["r1", "intake:ask"]);
        return (await tx.query<{ n: number }>("SELECT count(*) AS n FROM journal"))[0]?.n;
      });
      expect(result).toBe(2);
      expect(await db.query("SELECT name FROM journal ORDER BY name")).toEqual([
        { name: "intake:ask" },
        { name: "persist:run:start" },
      ]);
    }));

  it("rolls a transaction back when its work throws, and rethrows the same error", () =>
    withDatabase(async (db) => {
      await db.query("CREATE TABLE journal (name text)");
      const failure = new Error("the work failed");
      await expect(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO journal VALUES ($1)", ["lost"]);
          throw failure;
        }),
      ).rejects.toBe(failure);
      await expect(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO journal VALUES ($1)", ["also lost"]);
          await tx.query("SELECT * FROM no_such_table");
        }),
      ).rejects.toThrow(/no_such_table/);
      expect(await db.query("SELECT * FROM journal")).toEqual([]);
      await db.query("INSERT INTO journal VALUES ($1)", ["kept"]);
      expect(await db.query("SELECT * FROM journal")).toEqual([{ name: "kept" }]);
    }));

  it("fails, and keeps nothing, when its work swallowed a failed statement's error", () =>
    withDatabase(async (db) => {
      await db.query("CREATE TABLE journal (name text PRIMARY KEY)");
      await expect(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO journal VALUES ('first')");
          await tx.query("INSERT INTO journal VALUES ('first')").catch(() => undefined);
          return "done";
        }),
      ).rejects.toThrow(/rolled back instead of committed/);
      expect(await db.query("SELECT * FROM journal")).toEqual([]);
    }));

  it("refuses the database itself inside a transaction, and tx after the transaction ended", () =>
    withDatabase(async (db) => {
      await db.query("CREATE TABLE journal (name text)");
      await expect(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO journal VALUES ('rolled back')");
          await db.query("SELECT 1");
        }),
      ).rejects.toThrow(/database\.query\(\) was called inside database\.transaction\(\)/);
      await expect(db.transaction(() => db.transaction(async () => 1))).rejects.toThrow(
        /database\.transaction\(\) was called inside/,
      );
      let leaked: Parameters<Parameters<Database["transaction"]>[0]>[0] | undefined;
      await db.transaction(async (tx) => {
        leaked = tx;
      });
      await expect(leaked?.query("SELECT 1")).rejects.toThrow(/after its transaction ended/);
      expect(await db.query("SELECT * FROM journal")).toEqual([]);
    }));

  it("keeps concurrent transactions whole: twenty read-modify-writes lose no update", () =>
    withDatabase(async (db) => {
      await db.query("CREATE TABLE counter (id int PRIMARY KEY, value int)");
      await db.query("INSERT INTO counter VALUES (1, 0)");
      const writers = Array.from({ length: 20 }, (_, index) =>
        db.transaction(async (tx) => {
          const [row] = await tx.query<{ value: number }>(
            "SELECT value FROM counter WHERE id = 1 FOR UPDATE",
          );
          await new Promise((resolve) => setImmediate(resolve));
          await tx.query("UPDATE counter SET value = $1 WHERE id = 1", [(row?.value ?? 0) + 1]);
          return index;
        }),
      );
      expect((await Promise.all(writers)).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 20 }, (_, i) => i),
      );
      expect(await db.query("SELECT value FROM counter")).toEqual([{ value: 20 }]);
    }));

  it("lets exactly one of fifty concurrent conditional updates win", () =>
    withDatabase(async (db) => {
      await db.query("CREATE TABLE calls (id text PRIMARY KEY, status text, output jsonb)");
      await db.query("INSERT INTO calls VALUES ('intake-run', 'pending_approval', NULL)");
      const settle =
        "UPDATE calls SET status = 'settled', output = $2 WHERE id = $1 AND status = 'pending_approval' RETURNING output";
      const racers = Array.from({ length: 50 }, (_, index) => {
        const params = ["intake-run", JSON.stringify({ winner: index })];
        return index % 2 === 0
          ? db.query<{ output: { winner: number } }>(settle, params)
          : db.transaction((tx) => tx.query<{ output: { winner: number } }>(settle, params));
      });
      const results = await Promise.all(racers);
      const winners = results.filter((rows) => rows.length === 1);
      expect(winners).toHaveLength(1);
      expect(results.filter((rows) => rows.length === 0)).toHaveLength(49);
      const [stored] = await db.query<{ status: string; output: { winner: number } }>(
        "SELECT status, output FROM calls",
      );
      expect(stored?.status).toBe("settled");
      expect(winners[0]?.[0]?.output).toEqual(stored?.output);
    }));

  it("delivers notifications, from a committed transaction too, and none from a rolled back one", () =>
    withDatabase(async (db) => {
      const received: string[] = [];
      const stop = await db.listen("prepick_runs", (payload) => received.push(payload));
      await db.notify("prepick_runs", "direct");
      await waitFor("the direct notification", () => (received.includes("direct") ? true : undefined));

      await db.transaction(async (tx) => {
        await tx.query("SELECT pg_notify($1, $2)", ["prepick_runs", "committed"]);
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.query("SELECT pg_notify($1, $2)", ["prepick_runs", "rolled back"]);
          throw new Error("abandon");
        }),
      ).rejects.toThrow("abandon");
      await db.notify("prepick_runs", "marker");
      // Notifications arrive in commit order, so once the marker is here the rest has been delivered.
      await waitFor("the marker notification", () => (received.includes("marker") ? true : undefined));
      expect(received).toEqual(["direct", "committed", "marker"]);

      await stop();
      const other: string[] = [];
      const stopOther = await db.listen("Other-Channel", (payload) => other.push(payload));
      await db.notify("prepick_runs", "after stop");
      await db.notify("Other-Channel", "case kept");
      await waitFor("the notification on Other-Channel", () => (other.length > 0 ? true : undefined));
      expect(other).toEqual(["case kept"]);
      expect(received).not.toContain("after stop");
      await stopOther();
    }));

  it("migrates a store an older version wrote: its rows kept, its runs and inbox going on", () =>
    withDatabase(async (db) => {
      // The schema as migration 8 left it, with a run parked on a waiting call and one running.
      await db.query("CREATE TABLE prepick_migrations (version integer PRIMARY KEY, applied_at timestamptz)");
      for (const migration of MIGRATIONS.filter((each) => each.version <= 8)) {
        for (const statement of migration.statements) await db.query(statement);
        await db.query("INSERT INTO prepick_migrations (version) VALUES ($1)", [migration.version]);
      }
      // The rows as that version wrote them: a frame a row, numbered by `seq`.
      const callId = "call-parked";
      const running = "run-running";
      await db.query(
        `INSERT INTO prepick_threads (id, actor_id, agent) VALUES ('thread-parked', 'ada', 'agent'),
           ('thread-running', 'ada', 'agent')`,
      );
      await db.query(
        `INSERT INTO prepick_runs (id, thread_id, actor_id, agent, turn, message_id, user_message, status,
           lease_owner, lease_until, waiting_on)
         VALUES ('run-parked', 'thread-parked', 'ada', 'agent', 0, 'message-parked', '{}', 'parked',
             NULL, NULL, $1),
           ($2, 'thread-running', 'ada', 'agent', 0, 'message-running', '{}', 'running', 'worker',
             now() + interval '1 minute', NULL)`,
        [callId, running],
      );
      await db.query(
        `INSERT INTO prepick_checkpoints (run_id, position, name, result)
         VALUES ('run-parked', 0, 'persist:run:start', '{}'), ('run-parked', 1, 'intake:ask', '{"asked":true}'),
           ($1, 0, 'persist:run:start', '{}')`,
        [running],
      );
      await db.query(
        `INSERT INTO prepick_tool_calls (id, run_id, thread_id, actor_id, name, tool_type, status, input)
         VALUES ($1, 'run-parked', 'thread-parked', 'ada', 'ask', 'action', 'pending_approval', '{}')`,
        [callId],
      );
      const parkedFrames = [
        {
          seq: 1,
          frame: {
            kind: "run-start",
            runId: "run-parked",
            threadId: "thread-parked",
            messageId: "message-parked",
            agent: "agent",
          },
        },
        { seq: 2, frame: { kind: "text-delta", id: "t", delta: "asked" } },
        { seq: 3, frame: { kind: "run-parked", waitingFor: callId } },
      ];
      await db.query(
        `INSERT INTO prepick_frames (run_id, seq, frame)
         SELECT 'run-parked', (item->>'seq')::int, item->'frame' FROM jsonb_array_elements($1::jsonb) AS item
         UNION ALL SELECT $2, 1, '{"kind":"run-start"}'`,
        [json(parkedFrames), running],
      );

      const store = await createStore(db);
      const versions = await db.query<{ version: number }>(
        "SELECT version FROM prepick_migrations ORDER BY 1",
      );
      expect(versions.map((row) => row.version)).toEqual(MIGRATIONS.map((each) => each.version));

      // The running run's writes go on, numbered after what it wrote before.
      const recorded = await store.checkpoints.record(
        running,
        "worker",
        [{ position: 1, name: "model:0", result: { text: "hi" } }],
        {
          frames: [
            { kind: "step-start", step: 0 },
            { kind: "step-finish", step: 0 },
          ],
        },
      );
      expect(recorded).toMatchObject({ held: true, first: 2, seq: 3 });
      // Each frame written before keeps its number, read alone or with those after it.
      expect(await store.frames.after("run-parked", 0)).toEqual(parkedFrames);
      expect(await store.frames.after("run-parked", 1, 1)).toEqual(parkedFrames.slice(1, 2));
      expect((await store.frames.after(running, 0)).map(({ seq, frame }) => [seq, frame.kind])).toEqual([
        [1, "run-start"],
        [2, "step-start"],
        [3, "step-finish"],
      ]);
      expect(await store.frames.tail("run-parked")).toEqual({ lastSeq: 3, ended: false });
      // Its lapsed lease is still found by the sweep, through the lease index as keyed now.
      await db.query("UPDATE prepick_runs SET lease_until = now() - interval '1 second' WHERE id = $1", [
        running,
      ]);
      expect(await store.runs.expireLeases()).toBe(1);

      // The inbox: a waiting call's settling takes the actor's next version; a call that never
      // waited takes none.
      const inbox = async () =>
        Number(
          (await db.query<{ version: number }>("SELECT version FROM prepick_inbox_versions"))[0]?.version,
        );
      expect(await inbox()).toBe(1);
      const [settled] = await db.query<{ inbox_version: number }>(
        "UPDATE prepick_tool_calls SET status = 'answered' WHERE id = $1 RETURNING inbox_version",
        [callId],
      );
      expect(settled?.inbox_version).toBe(2);
      await db.query(
        `INSERT INTO prepick_tool_calls (id, run_id, thread_id, actor_id, name, tool_type, status)
         VALUES ('call-ran', $1, 'thread-running', 'ada', 'lookup', 'action', 'running')`,
        [running],
      );
      await db.query("UPDATE prepick_tool_calls SET status = 'completed' WHERE id = 'call-ran'");
      expect(await inbox()).toBe(2);
    }));

  it("gives every listener on a channel its own copy, and refuses an unusable channel name", () =>
    withDatabase(async (db) => {
      const first: string[] = [];
      const second: string[] = [];
      const stopFirst = await db.listen("runs", (payload) => first.push(payload));
      const stopSecond = await db.listen("runs", (payload) => second.push(payload));
      await db.notify("runs", "one");
      await waitFor("both listeners", () => (first.length && second.length ? true : undefined));
      await stopFirst();
      await db.notify("runs", "two");
      await waitFor("the second listener", () => (second.includes("two") ? true : undefined));
      expect(first).toEqual(["one"]);
      expect(second).toEqual(["one", "two"]);
      await stopSecond();
      await expect(db.listen("", () => undefined)).rejects.toThrow(/channel must be a non-empty string/);
      await expect(db.notify("x".repeat(64), "p")).rejects.toThrow(/at most 63 bytes/);
    }));
});

describe("PGlite on disk", () => {
  it("keeps committed rows across a close and a reopen of the same folder", async () => {
    // A first open of an empty folder is the engine's "PGlite on disk" above; this one reopens.
    const dataDir = await seededPgliteFolder(join(tempFolder(), "store"));
    const first = await openDatabase({ dataDir });
    await first.query("CREATE TABLE runs (id text, status text)");
    await first.transaction((tx) => tx.query("INSERT INTO runs VALUES ('r1', 'parked')"));
    await first.close();
    const second = await openDatabase({ dataDir });
    try {
      expect(second.kind).toBe("pglite");
      expect(await second.query("SELECT * FROM runs")).toEqual([{ id: "r1", status: "parked" }]);
    } finally {
      await second.close();
    }
  });
});

describe("PGlite's folder lock", () => {
  it("refuses a second open of a folder that is open, and allows it again after close", async () => {
    const dataDir = await seededPgliteFolder(join(tempFolder(), "store"));
    const first = await openDatabase({ dataDir });
    try {
      await expect(openDatabase({ dataDir })).rejects.toThrow(
        /already open in process \d+ \(this one\)\. PGlite allows one process per folder/,
      );
      expect(await first.query("SELECT 1 AS still")).toEqual([{ still: 1 }]);
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir });
    await again.close();
  });

  it("refuses a folder another live process holds, and takes over one whose process died", async () => {
    const dataDir = await seededPgliteFolder(join(tempFolder(), "store"));
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await writeFile(join(dataDir, LOCK_FILE), `${other.pid}\n`);
      await expect(openDatabase({ dataDir })).rejects.toThrow(`already open in process ${other.pid}`);
    } finally {
      other.kill("SIGKILL");
      await once(other, "exit");
    }
    // Its process is gone now, as after a crash: the lock is stale.
    const db = await openDatabase({ dataDir });
    try {
      expect(await readFile(join(dataDir, LOCK_FILE), "utf8")).toBe(`${process.pid}\n`);
    } finally {
      await db.close();
    }
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
  });
});

describe("PostgreSQL across connections", () => {
  it("plans a pooled connection's named statement once, generically, not anew with each call's values", async () => {
    if (!cluster) throw new Error("the PostgreSQL cluster did not start");
    const db = await openDatabase({ url: await cluster.createDatabase("generic_plans") });
    const sql = "SELECT $1::int + 1 AS next";
    try {
      const plans = await db.transaction(async (tx) => {
        for (const value of [1, 2, 3]) expect(await tx.query(sql, [value])).toEqual([{ next: value + 1 }]);
        return tx.query(
          "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1",
          [sql],
        );
      });
      expect(plans).toEqual([{ generic_plans: 3, custom_plans: 0 }]);
    } finally {
      await db.close();
    }
  });

  it("delivers a NOTIFY from one process's database to another's", async () => {
    if (!cluster) throw new Error("the PostgreSQL cluster did not start");
    const url = await cluster.createDatabase("shared_notify");
    const sender = await openDatabase({ url });
    const receiver = await openDatabase({ url });
    try {
      expect(receiver.kind).toBe("postgres");
      const received: string[] = [];
      await receiver.listen("prepick_runs", (payload) => received.push(payload));
      await sender.transaction((tx) => tx.query("SELECT pg_notify('prepick_runs', 'resume r1')"));
      await waitFor("the cross-connection notification", () => (received.length > 0 ? true : undefined));
      expect(received).toEqual(["resume r1"]);
    } finally {
      await sender.close();
      await receiver.close();
    }
  });

  it("listens again after its listening connection is dropped", async () => {
    if (!cluster) throw new Error("the PostgreSQL cluster did not start");
    const url = await cluster.createDatabase("reconnect");
    const db = await openDatabase({ url });
    try {
      const received: string[] = [];
      await db.listen("prepick_runs", (payload) => received.push(payload));
      const killed = await db.query<{ killed: boolean }>(
        "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
      );
      expect(killed).toEqual([{ killed: true }]);
      // Notifications sent while it reconnects are lost by design; keep sending until one lands.
      let sent = 0;
      await waitFor(
        "a notification after the reconnect",
        async () => {
          sent += 1;
          await db.notify("prepick_runs", `after drop ${sent}`);
          return received.length > 0 ? true : undefined;
        },
        { intervalMs: 100 },
      );
      expect(received[0]).toMatch(/^after drop \d+$/);
    } finally {
      await db.close();
    }
  });

  it("fails a transaction whose connection is killed mid-way, and carries on with a new one", async () => {
    if (!cluster) throw new Error("the PostgreSQL cluster did not start");
    const url = await cluster.createDatabase("killed_transaction");
    const db = await openDatabase({ url });
    const admin = await openDatabase({ url });
    try {
      await db.query("CREATE TABLE journal (name text)");
      await expect(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO journal VALUES ('lost')");
          const [me] = await tx.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
          await admin.query("SELECT pg_terminate_backend($1)", [me?.pid]);
          await tx.query("INSERT INTO journal VALUES ('after the kill')");
        }),
        // pg reports the kill either as the server's "terminating connection" or, when the socket
        // closed first, as "Client has encountered a connection error": the race is the driver's.
      ).rejects.toThrow(/terminat|connection error/i);
      expect(await db.query("SELECT * FROM journal")).toEqual([]);
    } finally {
      await db.close();
      await admin.close();
    }
  });

  it("fails to open with the server's reason when the URL is wrong", async () => {
    if (!cluster) throw new Error("the PostgreSQL cluster did not start");
    await expect(openDatabase({ url: cluster.urlFor("no_such_database") })).rejects.toThrow(
      /no_such_database/,
    );
  });
});
