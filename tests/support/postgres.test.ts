import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startPostgres } from "./postgres";
import { REPO_ROOT } from "./server-process";
import { waitFor } from "./wait-for";

describe("startPostgres", () => {
  it("starts a loopback cluster with an empty database and removes it on stop", async () => {
    const cluster = await startPostgres("harness_check");
    try {
      expect(cluster.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/harness_check$/);
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        const [row] = (
          await client.query(
            "SELECT current_database() AS name, current_setting('fsync') AS fsync, current_setting('listen_addresses') AS listen",
          )
        ).rows;
        expect(row).toEqual({ name: "harness_check", fsync: "off", listen: "127.0.0.1" });
        const tables = await client.query(
          "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'",
        );
        expect(tables.rows[0].n).toBe(0);
      } finally {
        await client.end();
      }
      expect(existsSync(cluster.directory)).toBe(true);
    } finally {
      await cluster.stop();
    }
    const probe = new pg.Client({ connectionString: cluster.url, connectionTimeoutMillis: 2_000 });
    await expect(probe.connect()).rejects.toThrow();
    await probe.end().catch(() => undefined);
    expect(existsSync(cluster.directory)).toBe(false);
  });

  it("is stopped and removed by its watchdog when the process that started it is killed", {
    timeout: 60_000,
  }, async () => {
    const owner = spawn(process.execPath, ["--import", "tsx", "tests/support/postgres-orphan.ts"], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let started: { url: string; directory: string } | undefined;
    try {
      let output = "";
      owner.stdout?.setEncoding("utf8");
      owner.stdout?.on("data", (chunk: string) => {
        output += chunk;
      });
      started = await waitFor(
        "the orphaned cluster's URL",
        () => {
          const line = output.split("\n").find((candidate) => candidate.startsWith("{"));
          return line ? (JSON.parse(line) as { url: string; directory: string }) : undefined;
        },
        { timeoutMs: 30_000 },
      );
      expect(existsSync(started.directory)).toBe(true);
    } finally {
      owner.kill("SIGKILL");
      await once(owner, "exit").catch(() => undefined);
    }
    const { directory, url } = started;
    await waitFor("the watchdog to remove the cluster", () => (existsSync(directory) ? undefined : true), {
      timeoutMs: 20_000,
      intervalMs: 200,
    });
    const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    await expect(probe.connect()).rejects.toThrow();
    await probe.end().catch(() => undefined);
  });
});
