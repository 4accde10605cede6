import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { ChannelListeners } from "./channel-listeners";
import { quoteChannel } from "./channel-name";
import { closableTransaction } from "./closable-transaction";
import { lockDataDir } from "./data-dir-lock";
import type { Database } from "./database";
import { preparedStatements } from "./pglite-prepared";
import { assertOutsideTransaction, inTransactionScope, outsideTransactionScope } from "./transaction-scope";
import { TYPE_PARSERS } from "./type-parsers";

/**
 * Opens the embedded engine: PGlite in `dataDir` (created if missing), or in memory without one.
 * PGlite is one connection: it already runs statements and transactions one at a time, so a
 * transaction never interleaves with other statements of this process. Only one process may
 * open a given `dataDir` at a time: a second is refused (see {@link lockDataDir}).
 */
export async function openPglite(dataDir?: string): Promise<Database> {
  let directory: string | undefined;
  let unlock = async () => {};
  if (dataDir !== undefined) {
    directory = resolve(dataDir);
    await mkdir(directory, { recursive: true });
    unlock = await lockDataDir(directory);
  }
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({
      ...(directory !== undefined ? { dataDir: directory } : {}),
      parsers: TYPE_PARSERS,
    });
  } catch (error) {
    await unlock();
    throw error;
  }
  const listeners = new ChannelListeners({
    subscribe: async (quoted) => {
      await pglite.exec(`LISTEN ${quoted}`);
    },
    unsubscribe: async (quoted) => {
      await pglite.exec(`UNLISTEN ${quoted}`);
    },
  });
  // PGlite delivers every notification here with the channel exactly as sent; dispatching
  // ourselves keeps channel names case-sensitive and quoted, as on a real server.
  const stopNotifications = pglite.onNotification((channel, payload) =>
    outsideTransactionScope(() => listeners.dispatch(channel, payload)),
  );

  const prepared = preparedStatements(pglite);

  const database: Database = {
    kind: "pglite",
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      assertOutsideTransaction(database, "query");
      return (await prepared.query(sql, params)) as Row[];
    },
    async transaction(work) {
      assertOutsideTransaction(database, "transaction");
      return inTransactionScope(database, () =>
        pglite.transaction(async (inner) => {
          const { tx, close } = closableTransaction((sql, params) => prepared.queryIn(inner, sql, params));
          try {
            return await work(tx);
          } finally {
            close();
          }
        }),
      );
    },
    async listen(channel, onNotify) {
      assertOutsideTransaction(database, "listen");
      return listeners.add(channel, onNotify);
    },
    async notify(channel, payload) {
      assertOutsideTransaction(database, "notify");
      quoteChannel(channel);
      await pglite.query("SELECT pg_notify($1, $2)", [channel, payload]);
    },
    async close() {
      stopNotifications();
      listeners.clear();
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        await unlock();
      }
    },
  };
  return database;
}
