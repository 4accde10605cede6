import { type PGlite, parse, protocol, type Transaction } from "@electric-sql/pglite";

type Row = Record<string, unknown>;
type Message = { name: string; dataTypeIDs?: number[] };

/** The parts of PGlite's own query path a prepared statement goes through (pinned version). */
interface PGliteInternals {
  serializers: Record<number, (value: unknown) => string>;
  parsers: Record<number, (value: string, typeId: number) => unknown>;
  _checkReady(): Promise<void>;
  _runExclusiveTransaction<T>(work: () => Promise<T>): Promise<T>;
  _runExclusiveQuery<T>(work: () => Promise<T>): Promise<T>;
  syncToFs(): Promise<void>;
}

// Enough for every statement the store runs; past it, new texts run unprepared.
const MAX_PREPARED = 256;
const NO_SYNC = { syncToFs: false } as const;

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

function hasInternals(pglite: PGlite): boolean {
  const candidate = pglite as unknown as Partial<PGliteInternals>;
  return (
    typeof candidate._runExclusiveTransaction === "function" &&
    typeof candidate._runExclusiveQuery === "function" &&
    typeof candidate._checkReady === "function" &&
    typeof candidate.syncToFs === "function" &&
    typeof candidate.serializers === "object" &&
    typeof candidate.parsers === "object"
  );
}

/**
 * Runs parameterised statements as named prepared statements: PGlite's `query` parses and plans
 * every call again, which costs several times the work of a small statement for the store's
 * larger ones. A statement is parsed once per text, then only bound and executed, through the
 * same exclusive locks PGlite's own `query` takes. Falls back to `query` when PGlite's
 * internals are not the ones this was written against, when the cache is full, and when a
 * cached plan no longer fits its tables (the statement is then prepared again next time).
 */
export function preparedStatements(pglite: PGlite) {
  const usable = hasInternals(pglite);
  const internals = pglite as unknown as PGliteInternals;
  const statements = new Map<string, { name: string; paramTypes: number[] }>();
  let named = 0;

  async function prepare(sql: string) {
    named += 1;
    const name = `prepick_${named}`;
    try {
      await pglite.execProtocol(protocol.serialize.parse({ name, text: sql }), NO_SYNC);
      const described = await pglite.execProtocol(protocol.serialize.describe({ type: "S", name }), NO_SYNC);
      const parameters = (described.messages as Message[]).find((m) => m.name === "parameterDescription");
      const statement = { name, paramTypes: parameters?.dataTypeIDs ?? [] };
      statements.set(sql, statement);
      return statement;
    } finally {
      await pglite.execProtocol(protocol.serialize.sync(), NO_SYNC);
    }
  }

  async function execute(sql: string, params: readonly unknown[]): Promise<Row[]> {
    const statement = statements.get(sql) ?? (await prepare(sql));
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serialize = internals.serializers[statement.paramTypes[index] ?? 0];
      return serialize ? serialize(value) : String(value);
    });
    // One call into the engine for the four messages: it reads them in order, and after an
    // error skips to the Sync, as a server does with a pipelined batch.
    const { messages } = await pglite.execProtocol(
      concat([
        protocol.serialize.bind({ statement: statement.name, values }),
        protocol.serialize.describe({ type: "P" }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      NO_SYNC,
    );
    const [result] = parse.parseResults(messages as never, internals.parsers as never);
    return (result?.rows ?? []) as Row[];
  }

  const preparable = (sql: string, params: readonly unknown[]) =>
    usable && params.length > 0 && (statements.has(sql) || statements.size < MAX_PREPARED);

  // A table changed under a cached plan: forget it and prepare it afresh. Outside a transaction
  // the statement is run again; inside one the error has aborted it, so it goes to the caller.
  async function forgettingStalePlans(
    sql: string,
    work: () => Promise<Row[]>,
    retry: boolean,
  ): Promise<Row[]> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof Error) || !/cached plan must not change result type/.test(error.message))
        throw error;
      statements.delete(sql);
      if (!retry) throw error;
      return work();
    }
  }

  return {
    /** Runs a statement outside any transaction, as `pglite.query` does. */
    async query(sql: string, params: readonly unknown[]): Promise<Row[]> {
      if (!preparable(sql, params)) return (await pglite.query<Row>(sql, [...params])).rows;
      return forgettingStalePlans(
        sql,
        async () => {
          await internals._checkReady();
          return internals._runExclusiveTransaction(() =>
            internals._runExclusiveQuery(async () => {
              const rows = await execute(sql, params);
              await internals.syncToFs();
              return rows;
            }),
          );
        },
        true,
      );
    },
    /** Runs a statement inside `tx`, a transaction PGlite holds for it, as `tx.query` does. */
    async queryIn(tx: Transaction, sql: string, params: readonly unknown[]): Promise<Row[]> {
      if (!preparable(sql, params)) return (await tx.query<Row>(sql, [...params])).rows;
      return forgettingStalePlans(sql, () => internals._runExclusiveQuery(() => execute(sql, params)), false);
    },
  };
}
