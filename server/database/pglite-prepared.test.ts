import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { preparedStatements } from "./pglite-prepared";
import { TYPE_PARSERS } from "./type-parsers";

let pglite: PGlite;
let prepared: ReturnType<typeof preparedStatements>;

beforeAll(async () => {
  pglite = await PGlite.create({ parsers: TYPE_PARSERS });
  prepared = preparedStatements(pglite);
  await pglite.exec(
    `CREATE TABLE notes (id int PRIMARY KEY, body jsonb, at timestamptz, done boolean, tags text[])`,
  );
});

afterAll(async () => {
  await pglite.close();
});

const plain = async (sql: string, params: unknown[]) => (await pglite.query(sql, params)).rows;

describe("PGlite prepared statements", () => {
  it("return what PGlite's own query returns, for every type the store uses, call after call", async () => {
    const insert = "INSERT INTO notes VALUES ($1, $2::jsonb, $3, $4, $5) RETURNING *";
    const at = new Date("2026-11-30T01:02:03.456Z");
    const first = await prepared.query(insert, [1, JSON.stringify({ a: [1, "two"] }), at, true, ["x", "y"]]);
    const second = await prepared.query(insert, [2, JSON.stringify(null), null, false, []]);
    expect(first).toEqual(await plain("SELECT * FROM notes WHERE id = $1", [1]));
    expect(second).toEqual(await plain("SELECT * FROM notes WHERE id = $1", [2]));
    expect(first[0]).toMatchObject({
      id: 1,
      body: { a: [1, "two"] },
      at: at.toISOString(),
      done: true,
      tags: ["x", "y"],
    });
    const select = "SELECT id, body->'a' AS a FROM notes WHERE id = ANY($1::int[]) ORDER BY id";
    expect(await prepared.query(select, [[1, 2]])).toEqual(await plain(select, [[1, 2]]));
    expect(await prepared.query(select, [[2]])).toEqual([{ id: 2, a: null }]);
  });

  it("stays usable after a statement fails, and reports PostgreSQL's error", async () => {
    const insert = "INSERT INTO notes (id) VALUES ($1)";
    await prepared.query(insert, [10]);
    await expect(prepared.query(insert, [10])).rejects.toThrow(/duplicate key/);
    await expect(prepared.query("SELECT * FROM missing WHERE id = $1", [1])).rejects.toThrow(/missing/);
    expect(await prepared.query("SELECT count(*)::int AS n FROM notes WHERE id = $1", [10])).toEqual([
      { n: 1 },
    ]);
  });

  it("runs inside a transaction, whose rollback undoes it", async () => {
    const insert = "INSERT INTO notes (id) VALUES ($1)";
    await expect(
      pglite.transaction(async (tx) => {
        await prepared.queryIn(tx, insert, [20]);
        expect(await prepared.queryIn(tx, "SELECT id FROM notes WHERE id = $1", [20])).toEqual([{ id: 20 }]);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    expect(await prepared.query("SELECT id FROM notes WHERE id = $1", [20])).toEqual([]);
  });

  it("prepares a statement again when its table changed under the cached plan", async () => {
    const select = "SELECT * FROM notes WHERE id = $1";
    expect(Object.keys((await prepared.query(select, [1]))[0] ?? {})).not.toContain("extra");
    await pglite.exec("ALTER TABLE notes ADD COLUMN extra text");
    expect(Object.keys((await prepared.query(select, [1]))[0] ?? {})).toContain("extra");
  });
});
