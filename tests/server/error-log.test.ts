import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrepickServer } from "../../server/server";
import { type CapturedLog, captureLog } from "../../server/testing/capture-log";
import { startServer } from "../../server/testing/harness";
import { plain } from "../../server/testing/test-agents";

// A request that fails inside the server answers with an id and no detail; the detail goes to the
// log as one JSON line under that id, whatever the request's path or the error's text holds.
let server: PrepickServer;
let log: CapturedLog;

/** Fails as the deployment's own sign-in check might: with its database's words, or its outage. */
function authenticate(request: Request): string {
  const path = new URL(request.url).pathname;
  if (path.includes("down")) {
    throw Object.assign(new Error("connect ECONNREFUSED 10.1.2.3:5432"), { code: "ECONNREFUSED" });
  }
  throw new Error('relation "sessions" does not exist\n{"level":"info","event":"also forged"}');
}

beforeAll(async () => {
  log = captureLog();
  server = await startServer({ agents: [plain], authenticate });
}, 60_000);
afterAll(async () => {
  log.restore();
  await server?.close();
}, 60_000);

describe("a request the server fails", () => {
  it("answers 500 with an error id; the log holds one JSON line for it, a %0a in the path included", async () => {
    const before = log.lines.length;
    const forged = encodeURIComponent('\n{"level":"info","event":"forged","errorId":"err-x"}');
    const response = await fetch(`${server.url}/agent/threads/t${forged}`);
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: string; code: string; errorId: string };
    expect(body).toMatchObject({ error: "The server failed to handle the request.", code: "internal" });
    expect(JSON.stringify(body)).not.toContain("sessions");
    const written = log.lines.slice(before);
    expect(written).toHaveLength(1);
    expect(written[0]).not.toContain("\n");
    const entry = JSON.parse(written[0] ?? "") as Record<string, string>;
    expect(entry).toMatchObject({
      level: "error",
      event: "request failed",
      errorId: body.errorId,
      method: "GET",
    });
    // The router decodes %0a in the path: the newline is in the entry, escaped inside its line.
    expect(entry.path).toMatch(/^\/agent\/threads\/t\n\{"level"/);
    expect(entry.error).toContain('relation "sessions" does not exist');
  });

  it("answers 503 with Retry-After when what failed was reaching a store", async () => {
    const response = await fetch(`${server.url}/agent/threads/down`);
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await response.json()) as { error: string; code: string; errorId: string };
    expect(body.code).toBe("store-unavailable");
    expect(JSON.stringify(body)).not.toContain("10.1.2.3");
    expect(log.entry(body.errorId)).toMatchObject({
      event: "store unavailable",
      path: "/agent/threads/down",
    });
  });
});
