import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approvals, type ChatTurn, chatBody, intakeId, startChat } from "../support/agent-api";
import { type ApiResponse, apiClient, readBody } from "../support/api-client";
import { type ServerProcess, startServer } from "../support/server-process";
import { type FaultCluster, startFaultCluster } from "./support/fault-database";
import { tableSnapshot } from "./support/table-snapshot";

let cluster: FaultCluster | undefined;
let server: ServerProcess | undefined;
let databaseUrl = "";
let refactor: ChatTurn;
let booking: ChatTurn;
let operatorCall = "";

beforeAll(async () => {
  cluster = await startFaultCluster("bad_input");
  databaseUrl = await cluster.freshDatabase();
  server = await startServer({ env: { DATABASE_URL: databaseUrl } });
  const ada = apiClient(server.url, "ada");
  refactor = await startChat(ada, "refactorer", "Refactor the parser");
  booking = await startChat(ada, "booking", "Book two seats");
  await startChat(ada, "operator", "Purge the pages cache");
  const pending = await approvals(ada);
  operatorCall = String(pending.find((row) => row.name === "purge_cache")?.id ?? "");
}, 90_000);

afterAll(async () => {
  await server?.kill();
  await cluster?.stop();
});

/** One raw request: any method, headers and body bytes, as ada unless told otherwise. */
async function send(
  method: string,
  path: string,
  {
    body,
    type = "application/json",
    actor = "ada",
  }: { body?: string | Uint8Array<ArrayBuffer>; type?: string; actor?: string } = {},
): Promise<ApiResponse> {
  if (!server) throw new Error("the server did not start");
  const response = await fetch(new URL(path, server.url), {
    method,
    headers: { "x-actor-id": actor, ...(body !== undefined ? { "content-type": type } : {}) },
    ...(body !== undefined ? { body } : {}),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, headers: response.headers, body: await readBody(response) };
}

const json = (value: unknown) => JSON.stringify(value);
const post = (path: string, value: unknown, options: { actor?: string } = {}) =>
  send("POST", path, { body: typeof value === "string" ? value : json(value), ...options });

/** A malformed request, the status it must get (a number, or any 4xx) and what the message must say. */
interface BadRequest {
  name: string;
  send: () => Promise<ApiResponse>;
  status: number | "4xx";
  says: RegExp;
}

function cases(): BadRequest[] {
  const intake = intakeId(refactor.runId);
  const bookingCall = intakeId(booking.runId);
  const answer = (answers: unknown, toolCallId = bookingCall) =>
    post("/agent/tool-call/answer", { toolCallId, answers });
  const stream = (runId: string, query: string, actor = "ada") =>
    send("GET", `/agent/runs/${encodeURIComponent(runId)}/stream${query}`, { actor });
  return [
    // Bodies
    {
      name: "answer: a JSON array body",
      send: () => post("/agent/tool-call/answer", "[]"),
      status: 400,
      says: /object/,
    },
    {
      name: "answer: a JSON null body",
      send: () => post("/agent/tool-call/answer", "null"),
      status: 400,
      says: /object/,
    },
    {
      name: "answer: a JSON number body",
      send: () => post("/agent/tool-call/answer", "42"),
      status: 400,
      says: /object/,
    },
    {
      name: "answer: trailing garbage after the JSON",
      send: () => post("/agent/tool-call/answer", `${json({ toolCallId: intake })} x`),
      status: 400,
      says: /JSON/,
    },
    {
      name: "answer: 20 000 nested arrays",
      send: () => post("/agent/tool-call/answer", `${"[".repeat(20_000)}${"]".repeat(20_000)}`),
      status: 400,
      says: /object|JSON/,
    },
    {
      name: "skip: no toolCallId",
      send: () => post("/agent/tool-call/skip", {}),
      status: 400,
      says: /toolCallId/,
    },
    {
      name: "approve: an empty toolCallId",
      send: () => post("/agent/tool-call/approve", { toolCallId: "" }),
      status: 400,
      says: /toolCallId/,
    },
    {
      name: "reject: a numeric reason",
      send: () => post("/agent/tool-call/reject", { toolCallId: operatorCall, reason: 5 }),
      status: 400,
      says: /reason/,
    },
    {
      name: "reject: a 3000-character reason",
      send: () => post("/agent/tool-call/reject", { toolCallId: operatorCall, reason: "r".repeat(3_000) }),
      status: 400,
      says: /reason/,
    },
    {
      name: "chat: a body over 64 KiB",
      send: () => post("/agent/chat", chatBody("refactorer", "x".repeat(70 * 1024))),
      status: 413,
      says: /larger than/,
    },
    {
      name: "chat: message.role is assistant",
      send: () =>
        post("/agent/chat", {
          agent: "refactorer",
          message: { role: "assistant", parts: [{ type: "text", text: "hi" }] },
        }),
      status: 400,
      says: /role/,
    },
    {
      name: "chat: message.parts is not an array",
      send: () => post("/agent/chat", { agent: "refactorer", message: { role: "user", parts: "hi" } }),
      status: 400,
      says: /parts/,
    },
    {
      name: "chat: a text part whose text is a number",
      send: () =>
        post("/agent/chat", {
          agent: "refactorer",
          message: { role: "user", parts: [{ type: "text", text: 5 }] },
        }),
      status: 400,
      says: /parts\[0\]/,
    },
    {
      name: "chat: agent is a number",
      send: () =>
        post("/agent/chat", { agent: 7, message: { role: "user", parts: [{ type: "text", text: "hi" }] } }),
      status: 400,
      says: /agent/,
    },
    {
      name: "chat: message.id with spaces",
      send: () =>
        post("/agent/chat", {
          agent: "refactorer",
          message: { id: "a b", role: "user", parts: [{ type: "text", text: "hi" }] },
        }),
      status: 400,
      says: /message\.id/,
    },
    // Headers and encodings
    {
      name: "answer: a form-encoded body",
      send: () =>
        send("POST", "/agent/tool-call/answer", {
          body: `toolCallId=${intake}`,
          type: "application/x-www-form-urlencoded",
        }),
      status: 415,
      says: /content-type/,
    },
    {
      name: "chat: a text/plain body",
      send: () =>
        send("POST", "/agent/chat", { body: json(chatBody("refactorer", "hi")), type: "text/plain" }),
      status: 415,
      says: /content-type/,
    },
    {
      name: "answer: bytes that are not UTF-8",
      send: () => send("POST", "/agent/tool-call/answer", { body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }),
      status: 400,
      says: /JSON/,
    },
    {
      name: "answer: JSON in UTF-16 with a byte-order mark",
      send: () =>
        send("POST", "/agent/tool-call/answer", {
          body: new Uint8Array(Buffer.from(`\ufeff${json({ toolCallId: intake })}`, "utf16le")),
        }),
      status: 400,
      says: /JSON/,
    },
    {
      name: "stream: a Last-Event-ID that is not a number",
      send: () =>
        send("GET", `/agent/runs/${refactor.runId}/stream`, {}).then(() =>
          fetchWithLastEventId(refactor.runId, "abc"),
        ),
      status: 400,
      says: /Last-Event-ID/,
    },
    { name: "stream: after=-1", send: () => stream(refactor.runId, "?after=-1"), status: 400, says: /after/ },
    {
      name: "stream: after with eleven digits",
      send: () => stream(refactor.runId, "?after=99999999999"),
      status: 400,
      says: /after/,
    },
    // Ids
    {
      name: "answer: a 10 000-character toolCallId",
      send: () => post("/agent/tool-call/answer", { toolCallId: "c".repeat(10_000) }),
      status: 404,
      says: /No tool call/,
    },
    {
      name: "answer: a toolCallId with path traversal",
      send: () => post("/agent/tool-call/answer", { toolCallId: "../../etc/passwd" }),
      status: 404,
      says: /No tool call/,
    },
    {
      name: "approve: an unknown call",
      send: () => post("/agent/tool-call/approve", { toolCallId: "call-nobody-made" }),
      status: 404,
      says: /call-nobody-made/,
    },
    {
      name: "chat: a threadId with spaces",
      send: () => post("/agent/chat", { ...chatBody("refactorer", "hi"), threadId: "my thread" }),
      status: 400,
      says: /threadId/,
    },
    {
      name: "chat: another actor's thread",
      send: () =>
        post(
          "/agent/chat",
          { ...chatBody("refactorer", "hi"), threadId: refactor.threadId },
          { actor: "mallory" },
        ),
      status: 404,
      says: /thread/,
    },
    {
      name: "chat: a thread whose run still waits",
      send: () => post("/agent/chat", { ...chatBody("refactorer", "again"), threadId: refactor.threadId }),
      status: 409,
      says: /already has run/,
    },
    {
      name: "stream: an unknown run",
      send: () => stream("run-unknown", ""),
      status: 404,
      says: /run-unknown/,
    },
    {
      name: "stream: another actor's run",
      send: () => stream(refactor.runId, "", "mallory"),
      status: 404,
      says: /No run/,
    },
    {
      name: "checkpoints: another actor's run",
      send: () => send("GET", `/agent/runs/${refactor.runId}/checkpoints`, { actor: "mallory" }),
      status: 404,
      says: /No run/,
    },
    {
      name: "threads: an unknown thread",
      send: () => send("GET", "/agent/threads/thread-unknown"),
      status: 404,
      says: /thread-unknown/,
    },
    {
      name: "threads: another actor's thread",
      send: () => send("GET", `/agent/threads/${refactor.threadId}`, { actor: "mallory" }),
      status: 404,
      says: /thread/i,
    },
    {
      name: "cancel: another actor's run",
      send: () => post(`/agent/runs/${refactor.runId}/cancel`, {}, { actor: "mallory" }),
      status: 404,
      says: /No run/,
    },
    {
      name: "cancel: an unknown run",
      send: () => post("/agent/runs/run-unknown/cancel", {}),
      status: 404,
      says: /run-unknown/,
    },
    {
      name: "GET on the answer endpoint",
      send: () => send("GET", "/agent/tool-call/answer"),
      status: "4xx",
      says: /tool-call\/answer|route/,
    },
    {
      name: "an unknown agent route",
      send: () => send("GET", "/agent/nope"),
      status: 404,
      says: /\/agent\/nope/,
    },
    // Text PostgreSQL cannot hold (NUL, lone surrogates): each of these answered 500
    {
      name: "chat: text holding a NUL",
      send: () => post("/agent/chat", chatBody("refactorer", "hi\u0000there")),
      status: 400,
      says: /message\.parts\[0\]\.text holds NUL/,
    },
    {
      name: "chat: text holding a lone low surrogate",
      send: () => post("/agent/chat", chatBody("refactorer", "hi\udc00")),
      status: 400,
      says: /message\.parts\[0\]\.text holds a lone surrogate \(U\+DC00\)/,
    },
    {
      name: "answer: a value holding a NUL",
      send: () => answer({ seats: ["2"], contact: ["a@b.example"], notes: ["a\u0000b"] }),
      status: 400,
      says: /answers\.notes\[0\] holds NUL/,
    },
    {
      name: "answer: a value holding a lone high surrogate",
      send: () => answer({ seats: ["2"], contact: ["a@b.example"], notes: ["\ud800"] }),
      status: 400,
      says: /answers\.notes\[0\] holds a lone surrogate \(U\+D800\)/,
    },
    {
      name: "answer: a toolCallId holding a NUL",
      send: () => post("/agent/tool-call/answer", { toolCallId: `${bookingCall}\u0000` }),
      status: 400,
      says: /toolCallId holds NUL/,
    },
    {
      name: "stream: a run id holding a NUL",
      send: () => send("GET", `/agent/runs/${refactor.runId}%00/stream`),
      status: 400,
      says: /path holds NUL/,
    },
    {
      name: "threads: a thread id holding a NUL",
      send: () => send("GET", `/agent/threads/${refactor.threadId}%00`),
      status: 400,
      says: /path holds NUL/,
    },
    {
      name: "cancel: a run id holding a NUL",
      send: () => post(`/agent/runs/${refactor.runId}%00/cancel`, {}),
      status: 400,
      says: /path holds NUL/,
    },
    // Answers and the kind of call they settle
    {
      name: "answer: a number among the values",
      send: () => answer({ seats: [3] }),
      status: 400,
      says: /seats/,
    },
    {
      name: "answer: seats that is not a number",
      send: () => answer({ seats: ["many"], contact: ["a@b.example"] }),
      status: 400,
      says: /answers\["seats"\]/,
    },
    {
      name: "answer: seats below the minimum",
      send: () => answer({ seats: ["0"], contact: ["a@b.example"] }),
      status: 400,
      says: /answers\["seats"\] must be at least 1/,
    },
    {
      name: "answer: an address that is not an email",
      send: () => answer({ contact: ["not-an-email"] }),
      status: 400,
      says: /answers\["contact"\]/,
    },
    {
      name: "answer: a required question with no answer and no default",
      send: () => answer({ seats: ["2"] }),
      status: 400,
      says: /answers\["contact"\]/,
    },
    {
      name: "answer: notes over 500 characters",
      send: () => answer({ contact: ["a@b.example"], notes: ["n".repeat(501)] }),
      status: 400,
      says: /answers\["notes"\]/,
    },
    {
      name: "answer: a value that is not an option",
      send: () => answer({ scope: ["galaxy"] }, intake),
      status: 400,
      says: /answers\["scope"\]/,
    },
    {
      name: "answer: two values for a single choice",
      send: () => answer({ scope: ["file", "module"] }, intake),
      status: 400,
      says: /answers\["scope"\]/,
    },
    {
      name: "answer: a tool call awaiting approval",
      send: () => post("/agent/tool-call/answer", { toolCallId: operatorCall }),
      status: 400,
      says: /approve/,
    },
    {
      name: "skip: a tool call awaiting approval",
      send: () => post("/agent/tool-call/skip", { toolCallId: operatorCall }),
      status: 400,
      says: /approve/,
    },
    {
      name: "approve: a question set",
      send: () => post("/agent/tool-call/approve", { toolCallId: intake }),
      status: 400,
      says: /question set/,
    },
    {
      name: "reject: a question set",
      send: () => post("/agent/tool-call/reject", { toolCallId: intake }),
      status: 400,
      says: /question set/,
    },
  ];
}

/** What a person reads in a refusal: the error and each issue's message, one per line. */
function messages(response: ApiResponse): string {
  const body = (response.body ?? {}) as { error?: unknown; issues?: { message?: unknown }[] };
  return [body.error, ...(body.issues ?? []).map((issue) => issue.message)].map(String).join("\n");
}

async function fetchWithLastEventId(runId: string, lastEventId: string): Promise<ApiResponse> {
  if (!server) throw new Error("the server did not start");
  const response = await fetch(new URL(`/agent/runs/${runId}/stream`, server.url), {
    headers: { "x-actor-id": "ada", "last-event-id": lastEventId },
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, headers: response.headers, body: await readBody(response) };
}

describe("bad input across every endpoint", { timeout: 120_000 }, () => {
  it("gets a 4xx with a clear message for each of 40+ distinct malformed requests, and no row changes", async () => {
    if (!cluster || !server) throw new Error("the server did not start");
    expect(operatorCall).not.toBe("");
    const table = cases();
    expect(new Set(table.map(({ name }) => name)).size).toBe(table.length);
    expect(table.length).toBeGreaterThanOrEqual(40);
    const before = await tableSnapshot(cluster, databaseUrl);
    for (const { name, send: request, status, says } of table) {
      const response = await request();
      const context = `${name}: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
      if (status === "4xx") {
        expect.soft(response.status >= 400 && response.status < 500, context).toBe(true);
      } else {
        expect.soft(response.status, context).toBe(status);
      }
      const error = (response.body as { error?: unknown } | null)?.error;
      expect
        .soft(typeof error === "string" && error.length > 0, `a non-empty "error": ${context}`)
        .toBe(true);
      expect.soft(messages(response), context).toMatch(says);
    }
    expect(await tableSnapshot(cluster, databaseUrl)).toEqual(before);

    // The server keeps serving: the same calls settle normally afterwards.
    const ada = apiClient(server.url, "ada");
    expect((await ada.get("/agent/agents")).status).toBe(200);
    const settled = await ada.post("/agent/tool-call/answer", {
      toolCallId: intakeId(booking.runId),
      answers: { seats: ["3"], contact: ["ada@example.com"] },
    });
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
  });
});

describe("bad input for identity and the thread read", { timeout: 120_000 }, () => {
  /** A request with exactly these headers (no actor unless one is given). */
  async function raw(method: string, path: string, headers: Record<string, string>, body?: string) {
    if (!server) throw new Error("the server did not start");
    const response = await fetch(new URL(path, server.url), {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: response.status, headers: response.headers, body: await readBody(response) };
  }
  const thread = (query: string) => send("GET", `/agent/threads/${refactor.threadId}${query}`);
  const cancel = () => `/agent/runs/${refactor.runId}/cancel`;
  const form = { "x-actor-id": "ada", "content-type": "application/x-www-form-urlencoded" };

  function identityCases(): BadRequest[] {
    const cursorOf = (fields: object) => Buffer.from(JSON.stringify(fields)).toString("base64url");
    // Another list's cursor, and a turn cursor whose turn is not a position.
    const otherKind = cursorOf({ kind: "approvals", version: 3 });
    const badTurn = cursorOf({ kind: "turn", turn: "x" });
    return [
      ...["0", "201", "abc", "-1", "1.5", "", "1e2"].map((limit) => ({
        name: `thread: limit ${JSON.stringify(limit)}`,
        send: () => thread(`?limit=${encodeURIComponent(limit)}`),
        status: 400,
        says: new RegExp(
          `^limit must be a whole number from 1 to 200; got ${JSON.stringify(JSON.stringify(limit)).slice(1, -1)}$`,
        ),
      })),
      ...["nope!", "", otherKind, badTurn].map((cursor) => ({
        name: `thread: cursor ${JSON.stringify(cursor)}`,
        send: () => thread(`?cursor=${encodeURIComponent(cursor)}`),
        status: 400,
        says: /^cursor must be a nextCursor this list returned; got /,
      })),
      {
        name: "cancel: a plain form POST from another site",
        send: () =>
          raw(
            "POST",
            cancel(),
            { ...form, origin: "http://evil.example", "sec-fetch-site": "cross-site" },
            "",
          ),
        status: 403,
        says: /must come from this server's own pages .* not from Origin "http:\/\/evil\.example"/,
      },
      {
        name: "cancel: a plain form POST from a same-site page",
        send: () =>
          raw("POST", cancel(), { ...form, origin: "http://localhost:1", "sec-fetch-site": "same-site" }, ""),
        status: 403,
        says: /not from Origin "http:\/\/localhost:1"/,
      },
      {
        name: "cancel: a form POST from a sandboxed page (Origin null)",
        send: () => raw("POST", cancel(), { ...form, origin: "null" }, ""),
        status: 403,
        says: /not from Origin "null"/,
      },
      {
        name: "cancel: a form POST with no Origin",
        send: () => raw("POST", cancel(), form, "a=1"),
        status: 415,
        says: /must be sent with content-type: application\/json, not "application\/x-www-form-urlencoded"/,
      },
      {
        name: "cancel: no content type at all",
        send: () => raw("POST", cancel(), { "x-actor-id": "ada" }),
        status: 415,
        says: /content-type: application\/json, not "none"/,
      },
      {
        name: "chat: JSON from another site",
        send: () =>
          raw(
            "POST",
            "/agent/chat",
            { "x-actor-id": "ada", "content-type": "application/json", origin: "http://evil.example" },
            json(chatBody("refactorer", "hi")),
          ),
        status: 403,
        says: /POST \/agent\/chat must come from/,
      },
      {
        name: "a POST to an unknown route from another site",
        send: () => raw("POST", "/agent/nope", { ...form, origin: "http://evil.example" }, "a=1"),
        status: 403,
        says: /POST \/agent\/nope must come from/,
      },
      {
        name: "approvals: no actor at all",
        send: () => raw("GET", "/agent/approvals", {}),
        status: 401,
        says: /names no actor/,
      },
    ];
  }

  it("gets a 4xx naming the field, rule and value, no cookie for a foreign request, and no row changes", async () => {
    if (!cluster || !server) throw new Error("the server did not start");
    const table = identityCases();
    expect(new Set(table.map(({ name }) => name)).size).toBe(table.length);
    const before = await tableSnapshot(cluster, databaseUrl);
    for (const { name, send: request, status, says } of table) {
      const response = await request();
      const context = `${name}: ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
      expect.soft(response.status, context).toBe(status);
      expect.soft(messages(response), context).toMatch(says);
      expect.soft(response.headers.get("set-cookie"), context).toBeNull();
    }
    expect(await tableSnapshot(cluster, databaseUrl)).toEqual(before);
    // The run the forged cancels named is still waiting on its questions.
    const stillParked = await apiClient(server.url, "ada").get(`/agent/threads/${refactor.threadId}`);
    expect(JSON.stringify(stillParked.body)).toContain('"status":"parked"');
  });
});
