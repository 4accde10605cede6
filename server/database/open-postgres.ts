import pg from "pg";
import { ChannelListeners } from "./channel-listeners";
import { quoteChannel } from "./channel-name";
import { closableTransaction } from "./closable-transaction";
import type { Database } from "./database";
import { assertOutsideTransaction, inTransactionScope, outsideTransactionScope } from "./transaction-scope";
import { TYPE_PARSERS } from "./type-parsers";

/**
 * Connections in the pool. A process holds hundreds of runs, but each spends its time waiting on a
 * model or a tool and holds a connection only for one statement at a time, so a few dozen serve
 * them; more would only make PostgreSQL switch between backends on the same cores, and several
 * processes share one server's `max_connections` (100 by default).
 */
const POOL_SIZE = 20;

/** How many statement texts get a name (a prepared statement on each connection). */
const MAX_NAMED_STATEMENTS = 256;

/**
 * Pooled connections plan each named statement once, with its parameters as parameters (a generic
 * plan), set in the connection's startup packet so it costs no statement. By default PostgreSQL
 * plans a prepared statement anew with each call's values for its first five calls on each
 * connection before settling on the generic plan, and a run's statements are large: a burst that
 * opens the pool's connections spent about 0.2 ms of PostgreSQL's CPU per run re-planning them
 * (docs/benchmarks.md). Every status, kind and predicate the partial indexes test is a literal in
 * the store's statements, and every parameter is compared by equality or bounds an indexed key,
 * so the generic plan is the plan the server settles on anyway.
 */
const GENERIC_PLANS = "-c plan_cache_mode=force_generic_plan";

/** Reconnect delays for the listening connection: doubling from the first to the last. */
const RECONNECT_DELAY_MS = { first: 100, last: 5_000 } as const;

const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    const parser = format === "binary" ? undefined : TYPE_PARSERS[oid];
    return parser ?? pg.types.getTypeParser(oid, format ?? "text");
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/**
 * Opens a real PostgreSQL server at `url`: statements through a pool, each transaction on one
 * pooled client, and notifications on one dedicated client that reconnects (and LISTENs again to
 * every channel) when its connection drops. Notifications sent while it was down are lost, as they
 * would be for any listener: a reader that must not miss work also polls.
 */
export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, types, max: POOL_SIZE, options: GENERIC_PLANS });
  // An idle pooled client whose server went away emits here; the pool drops it and opens another.
  pool.on("error", (error) => console.error("A pooled PostgreSQL connection failed:", error.message));
  // Fail now, with the server's own message, rather than on the first statement.
  try {
    (await pool.connect()).release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }

  let closed = false;
  let listenClient: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let reconnectDelay: number = RECONNECT_DELAY_MS.first;

  const listeners = new ChannelListeners({
    subscribe: async (quoted) => {
      await (await listenConnection()).query(`LISTEN ${quoted}`);
    },
    unsubscribe: async (quoted) => {
      // A dropped connection has already forgotten the channel; only a live one needs telling.
      await listenClient?.query(`UNLISTEN ${quoted}`).catch(() => undefined);
    },
  });

  function listenConnection(): Promise<pg.Client> {
    if (listenClient) return Promise.resolve(listenClient);
    connecting ??= connectListener().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  async function connectListener(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    let dropped = false;
    const onDrop = () => {
      if (dropped) return;
      dropped = true;
      if (listenClient === client) listenClient = undefined;
      client.end().catch(() => undefined);
      scheduleReconnect();
    };
    client.on("error", onDrop);
    client.on("end", onDrop);
    client.on("notification", (message) =>
      outsideTransactionScope(() => listeners.dispatch(message.channel, message.payload ?? "")),
    );
    await client.connect();
    for (const channel of listeners.channels()) await client.query(`LISTEN ${quoteChannel(channel)}`);
    if (closed) {
      await client.end().catch(() => undefined);
      throw new Error("The database was closed while its listening connection was opening");
    }
    listenClient = client;
    reconnectDelay = RECONNECT_DELAY_MS.first;
    return client;
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer || listeners.channels().length === 0) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      listenConnection().catch((error: Error) => {
        console.error("Reconnecting the PostgreSQL listening connection failed:", error.message);
        reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_DELAY_MS.last);
        scheduleReconnect();
      });
    }, reconnectDelay);
    reconnectTimer.unref();
  }

  // Parameterised statements are named, so each connection parses and plans a text once and
  // then only binds and executes it; the store runs a fixed set of them. Past the cap (texts
  // built at run time), statements go unnamed, as before.
  const names = new Map<string, string>();
  const statement = (sql: string, params: readonly unknown[]) => {
    let name = names.get(sql);
    if (name === undefined && params.length > 0 && names.size < MAX_NAMED_STATEMENTS) {
      name = `prepick_${names.size + 1}`;
      names.set(sql, name);
    }
    return { text: sql, values: [...params], ...(name === undefined ? {} : { name }) };
  };

  const database: Database = {
    kind: "postgres",
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      assertOutsideTransaction(database, "query");
      return (await pool.query(statement(sql, params))).rows as Row[];
    },
    async transaction(work) {
      assertOutsideTransaction(database, "transaction");
      const client = await pool.connect();
      let broken: Error | undefined;
      // A connection lost between statements is reported here rather than as an uncaught error;
      // the next statement fails with it, and the client is dropped from the pool.
      const onError = (error: Error) => {
        broken = error;
      };
      client.on("error", onError);
      try {
        await client.query("BEGIN").catch((error: Error) => {
          broken = error;
          throw error;
        });
        const { tx, close } = closableTransaction(
          async (sql, params) => (await client.query(statement(sql, params))).rows,
        );
        try {
          const result = await inTransactionScope(database, () => work(tx));
          close();
          const commit = await client.query("COMMIT");
          // PostgreSQL answers COMMIT of a failed transaction with ROLLBACK and no error; the work
          // caught a statement's failure and went on. Fail as PGlite does, not silently.
          if (commit.command === "ROLLBACK") {
            throw Object.assign(new Error("Transaction was rolled back instead of committed"), {
              code: "25P02",
            });
          }
          return result;
        } catch (error) {
          close();
          await client.query("ROLLBACK").catch((rollbackError: Error) => {
            // The connection is unusable: drop it from the pool instead of handing it out again.
            broken = rollbackError;
          });
          throw error;
        }
      } finally {
        client.off("error", onError);
        client.release(broken);
      }
    },
    async listen(channel, onNotify) {
      assertOutsideTransaction(database, "listen");
      return listeners.add(channel, onNotify);
    },
    async notify(channel, payload) {
      assertOutsideTransaction(database, "notify");
      quoteChannel(channel);
      await pool.query("SELECT pg_notify($1, $2)", [channel, payload]);
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(reconnectTimer);
      listeners.clear();
      const client = listenClient;
      listenClient = undefined;
      await client?.end().catch(() => undefined);
      await pool.end();
    },
  };
  return database;
}
