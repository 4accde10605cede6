import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../database/database";
import { openDatabase } from "../database/open-database";
import { inJsonbOrder, json } from "./json";

let db: Database;

beforeAll(async () => {
  db = await openDatabase({});
});

afterAll(async () => {
  await db.close();
});

/** A value as the journal gives it to a first run: written by `json`, keys in `jsonb`'s order. */
const asStored = (value: unknown) => inJsonbOrder(JSON.parse(json(value)) as unknown);

describe("inJsonbOrder", () => {
  it("gives a value back exactly as a jsonb column does, key order included", async () => {
    const value = {
      purged: "pages",
      hours: 24,
      nested: [{ zeta: 1, b: { yy: 2, x: 3, é: 4, e: 5 } }],
      "a long key": null,
      ab: "lone \ud800 surrogate",
      aa: true,
    };
    const rows = await db.query<{ value: unknown }>("SELECT $1::jsonb AS value", [json(value)]);
    const stored = rows[0]?.value;
    expect(JSON.stringify(asStored(value))).toBe(JSON.stringify(stored));
    // Not the order it was written in: a first run reading the value as written would differ.
    expect(JSON.stringify(stored)).not.toBe(JSON.stringify(value));
    expect(Object.keys(asStored(value) as object)).toEqual([
      "aa",
      "ab",
      "hours",
      "nested",
      "purged",
      "a long key",
    ]);
  });
});
