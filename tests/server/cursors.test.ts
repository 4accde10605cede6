import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrepickServer } from "../../server/server";
import { call, chat, startServer } from "../../server/testing/harness";
import { plain } from "../../server/testing/test-agents";

// A cursor is opaque, but a client can decode and change it. Whatever it holds, a cursor this list
// did not make is a 400 naming `cursor`, never a statement that fails as a 500.
let server: PrepickServer;
let threadId = "";

beforeAll(async () => {
  server = await startServer({ agents: [plain] });
  threadId = (await chat(server, "ada", "Hello")).threadId;
}, 60_000);
afterAll(async () => {
  await server?.close();
}, 60_000);

const cursor = (fields: Record<string, unknown>) =>
  Buffer.from(JSON.stringify(fields), "utf8").toString("base64url");

const STAMP = "2026-12-03 14:00:00.123456+00";
const threadCursors = {
  "a month past December": { kind: "threads", asOf: "2026-13-01 14:00:00+00", activeAt: STAMP, id: "t" },
  "the 31st of February": { kind: "threads", asOf: STAMP, activeAt: "2026-02-31 14:00:00+00", id: "t" },
  "the 25th hour": { kind: "threads", asOf: "2026-12-03 25:00:00+00", activeAt: STAMP, id: "t" },
  "an offset of 99 hours": { kind: "threads", asOf: "2026-12-03 14:00:00+99", activeAt: STAMP, id: "t" },
  "year 0": { kind: "threads", asOf: "0000-12-03 14:00:00+00", activeAt: STAMP, id: "t" },
  "a NUL in the id": { kind: "threads", asOf: STAMP, activeAt: STAMP, id: "t\u0000" },
  "a lone surrogate in the id": { kind: "threads", asOf: STAMP, activeAt: STAMP, id: "t\ud800" },
  "an id that is a number": { kind: "threads", asOf: STAMP, activeAt: STAMP, id: 7 },
};
const turnCursors = {
  "a turn past PostgreSQL's integer": { kind: "turn", turn: 2_147_483_648 },
  "the largest safe integer": { kind: "turn", turn: Number.MAX_SAFE_INTEGER },
  "a negative turn": { kind: "turn", turn: -1 },
  "a fraction": { kind: "turn", turn: 1.5 },
  "another list's cursor": { kind: "threads", asOf: STAMP, activeAt: STAMP, id: "t" },
};
const approvalCursors = {
  "a negative version": { kind: "approvals", version: -1 },
  "a version as text": { kind: "approvals", version: "7" },
  "a version past 2^53": { kind: "approvals", version: 1e20 },
};

describe("a malformed cursor", () => {
  it("is a 400 naming cursor on every list, whatever it was made to hold", async () => {
    const cases: [string, string, string][] = [
      ...Object.entries(threadCursors).map(([name, fields]): [string, string, string] => [
        name,
        "/agent/threads",
        cursor(fields),
      ]),
      ...Object.entries(turnCursors).map(([name, fields]): [string, string, string] => [
        name,
        `/agent/threads/${threadId}`,
        cursor(fields),
      ]),
      ...Object.entries(approvalCursors).map(([name, fields]): [string, string, string] => [
        name,
        "/agent/approvals",
        cursor(fields),
      ]),
      ["not base64url", "/agent/threads", "a+b/c="],
      ["empty", "/agent/approvals", ""],
      ["JSON that is not an object", "/agent/threads", Buffer.from("[1]").toString("base64url")],
      ["not JSON", `/agent/threads/${threadId}`, Buffer.from("{turn:").toString("base64url")],
    ];
    for (const [name, path, value] of cases) {
      const response = await call(server, "GET", `${path}?cursor=${encodeURIComponent(value)}`, "ada");
      expect.soft(response.status, `${name}: ${JSON.stringify(response.body)}`).toBe(400);
      expect.soft(response.body.field, name).toBe("cursor");
      expect
        .soft(String(response.body.error), name)
        .toMatch(/^cursor must be a nextCursor this list returned/);
    }
  });

  it("leaves a cursor the list made working", async () => {
    const first = await call(server, "GET", "/agent/threads?limit=1", "ada");
    expect(first.status).toBe(200);
    const made = cursor({ kind: "threads", asOf: STAMP, activeAt: STAMP, id: "thread-x" });
    expect((await call(server, "GET", `/agent/threads?cursor=${made}`, "ada")).status).toBe(200);
    const turn = cursor({ kind: "turn", turn: 2_147_483_647 });
    expect((await call(server, "GET", `/agent/threads/${threadId}?cursor=${turn}`, "ada")).status).toBe(200);
  });
});
