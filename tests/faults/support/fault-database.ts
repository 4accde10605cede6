import pg from "pg";
import { type PostgresCluster, startPostgres } from "../../support/postgres";

/** A PostgreSQL cluster for fault tests, handing out one fresh database per case. */
export interface FaultCluster {
  /** A new empty database's URL. */
  freshDatabase(): Promise<string>;
  /**
   * A new database holding a copy of the one at `url` (which no server may be connected to), and
   * its URL: a state several cases start from is made once, not once per case.
   */
  copyDatabase(url: string): Promise<string>;
  /** Runs one query on a database and returns its rows. */
  query<Row extends Record<string, unknown>>(url: string, sql: string, params?: unknown[]): Promise<Row[]>;
  /**
   * Ends the leases of runs a killed process held, as time would: a real deployment waits the
   * lease out (30 s by default), which a test has no reason to sit through.
   */
  expireLeases(url: string): Promise<void>;
  /** Stops the cluster and removes its files. */
  stop(): Promise<void>;
}

/** Starts a throwaway cluster (see `tests/support/postgres.ts`) named after the suite. */
export async function startFaultCluster(name: string): Promise<FaultCluster> {
  const cluster: PostgresCluster = await startPostgres(`${name}_0`);
  let databases = 0;
  const query = async <Row extends Record<string, unknown>>(
    url: string,
    sql: string,
    params: unknown[] = [],
  ) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<Row>(sql, params)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    freshDatabase: () => {
      databases += 1;
      return cluster.createDatabase(`${name}_${databases}`);
    },
    copyDatabase: (url) => {
      databases += 1;
      return cluster.createDatabase(`${name}_${databases}`, new URL(url).pathname.slice(1));
    },
    query,
    expireLeases: async (url) => {
      await query(
        url,
        "UPDATE prepick_runs SET lease_until = now() - interval '1 second' WHERE status = 'running'",
      );
    },
    stop: () => cluster.stop(),
  };
}
