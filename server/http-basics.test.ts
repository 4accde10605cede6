import { getEventListeners } from "node:events";
import { mkdir, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frameStreamResponse } from "./http/sse";
import type { PrepickServer } from "./server";
import { RunFeeds } from "./stream/run-feeds";
import { call, chat, startServer, tempDataDir } from "./testing/harness";
import { plain, refactorer } from "./testing/test-agents";

let server: PrepickServer;
let folder: { path: string; remove: () => Promise<void> };

beforeAll(async () => {
  folder = await tempDataDir();
  await mkdir(join(folder.path, "r"), { recursive: true });
  await writeFile(join(folder.path, "r", "registry.json"), '{"name":"prepick"}');
  server = await startServer({
    agents: [refactorer, plain],
    demoDir: join(folder.path, "missing-demo"),
    registryDir: join(folder.path, "r"),
  });
}, 60_000);
afterAll(async () => {
  await server.close();
  await folder.remove();
}, 60_000);

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "x-actor-id": "ada", "content-type": "application/json", ...headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("bad input", () => {
  it("refuses malformed JSON, wrong types, and bodies over 64 KiB", async () => {
    const malformed = await post("/agent/chat", "{nope");
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/^The body is not valid JSON: /);
    const wrongRole = await post("/agent/chat", JSON.stringify({ message: { role: "system", parts: [] } }));
    expect(wrongRole).toEqual({ status: 400, body: { error: 'message.role must be "user"' } });
    const wrongPart = await post(
      "/agent/chat",
      JSON.stringify({ message: { role: "user", parts: [{ type: "text", text: 3 }] } }),
    );
    expect(wrongPart.body.error).toContain("message.parts[0]");
    const noId = await post("/agent/tool-call/answer", JSON.stringify({ toolCallId: 7 }));
    expect(noId).toEqual({ status: 400, body: { error: "toolCallId must be a non-empty string" } });
    const huge = await post("/agent/chat", JSON.stringify({ pad: "x".repeat(70_000) }));
    expect(huge.status).toBe(413);
  });

  it("holds a body sent in chunks, without a length, to the same limit and rules", async () => {
    // No content-length: the server cannot refuse it up front and must stop reading past 64 KiB.
    const chunked = (chunks: string[], type = "application/json") =>
      new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
        const sent = request(
          `${server.url}/agent/chat`,
          { method: "POST", headers: { "x-actor-id": "ada", "content-type": type } },
          (response) => {
            let text = "";
            response.setEncoding("utf8");
            response.on("data", (part: string) => {
              text += part;
            });
            response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
          },
        );
        sent.on("error", reject);
        for (const chunk of chunks) sent.write(chunk);
        sent.end();
      });
    const huge = await chunked([
      '{"pad":"',
      ..."x"
        .repeat(70)
        .split("")
        .map(() => "x".repeat(1024)),
      '"}',
    ]);
    expect(huge).toEqual({ status: 413, body: { error: "The body is larger than 65536 bytes." } });
    const malformed = await chunked(["{no", "pe"]);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/^The body is not valid JSON: /);
    const wrongRole = await chunked(['{"message":', '{"role":"system","parts":[]}}']);
    expect(wrongRole).toEqual({ status: 400, body: { error: 'message.role must be "user"' } });
  });

  it("names the unknown agent and the known ones", async () => {
    const unknown = await post(
      "/agent/chat",
      JSON.stringify({ agent: "ghost", message: { role: "user", parts: [{ type: "text", text: "hi" }] } }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('agent "ghost" is not hosted here; the agents are "refactorer", "plain"');
  });

  it("keeps __proto__ keys from polluting anything and refuses them as unknown questions", async () => {
    const run = await chat(server, "ada", "Refactor it");
    const refused = await post(
      "/agent/tool-call/answer",
      `{"toolCallId":"intake-${run.runId}","answers":{"__proto__":["x"]},"__proto__":{"polluted":true}}`,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([
      expect.objectContaining({ questionId: "__proto__", rule: "unknown-question" }),
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await server.store.toolCalls.get(`intake-${run.runId}`))?.status).toBe("pending_approval");
  });
});

describe("actors", () => {
  it("issues a cookie to the server's own page without one and knows it on the next request", async () => {
    const first = await fetch(`${server.url}/agent/approvals`, {
      headers: { "sec-fetch-site": "same-origin" },
    });
    const cookie = first.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^prepick_actor=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
    const second = await fetch(`${server.url}/agent/approvals`, {
      headers: { cookie: cookie.split(";")[0] ?? "" },
    });
    expect(second.headers.get("set-cookie")).toBeNull();
    expect(await second.json()).toEqual({ approvals: [], nextCursor: null });
  });

  it("issues the cookie on a first request that streams, and answers that browser as the owner", async () => {
    const response = await fetch(`${server.url}/agent/chat`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ message: { role: "user", parts: [{ type: "text", text: "Refactor it" }] } }),
    });
    const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    expect(cookie).toMatch(/^prepick_actor=.+/);
    const runId = response.headers.get("x-run-id");
    await response.text();
    const answered = await fetch(`${server.url}/agent/tool-call/answer`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ toolCallId: `intake-${runId}` }),
    });
    expect(answered.status).toBe(200);
  });

  it("uses a deployment's authenticate, answering 401 when it returns nothing", {
    timeout: 60_000,
  }, async () => {
    const guarded = await startServer({
      agents: [plain],
      authenticate: (request) => request.headers.get("x-user") ?? undefined,
    });
    try {
      expect((await fetch(`${guarded.url}/agent/approvals`)).status).toBe(401);
      const ok = await fetch(`${guarded.url}/agent/approvals`, { headers: { "x-user": "zed" } });
      expect(ok.status).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it("hides a thread from everyone but its owner", async () => {
    const run = await chat(server, "ada", "Say hello", { agent: "plain" });
    expect((await call(server, "GET", `/agent/threads/${run.threadId}`, "bob")).status).toBe(404);
    const own = await call(server, "GET", `/agent/threads/${run.threadId}`, "ada");
    expect(own.body.agent).toBe("plain");
    expect(own.body.messages).toEqual([
      { id: expect.any(String), role: "user", parts: [{ type: "text", text: "Say hello" }] },
      expect.objectContaining({
        role: "assistant",
        runId: run.runId,
        status: "completed",
        lastSeq: run.frames.at(-1)?.seq,
      }),
    ]);
    expect((await call(server, "GET", `/agent/runs/${run.runId}/checkpoints`, "bob")).status).toBe(404);
  });
});

describe("agents and static files", () => {
  it("lists the agents with their intakes", async () => {
    const listed = await call(server, "GET", "/agent/agents", "ada");
    const agents = listed.body.agents as { name: string; ask: boolean; intake?: { questions: unknown[] } }[];
    expect(agents.map((agent) => agent.name)).toEqual(["refactorer", "plain"]);
    expect(agents[0]?.intake?.questions).toHaveLength(2);
    expect(agents[1]?.intake).toBeUndefined();
  });

  it("says the demo is not built, and serves the registry without escaping its folder", async () => {
    const home = await fetch(`${server.url}/`);
    expect(await home.text()).toContain('href="/agent/agents"');
    const registry = await fetch(`${server.url}/r/registry.json`);
    expect(await registry.json()).toEqual({ name: "prepick" });
    const climbing = await fetch(`${server.url}/r/..%2f..%2fetc%2fpasswd`);
    expect(climbing.status).toBe(404);
  });

  it("serves the page and the registry with nosniff and a policy allowing only the page's own scripts and styles", async () => {
    for (const path of ["/", "/r/registry.json", "/r/missing.json"]) {
      const response = await fetch(`${server.url}${path}`);
      await response.arrayBuffer();
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      const policy = new Map(
        (response.headers.get("content-security-policy") ?? "").split(";").map((directive) => {
          const [name = "", ...values] = directive.trim().split(/\s+/);
          return [name, values.join(" ")] as const;
        }),
      );
      expect(policy.get("script-src"), path).toBe("'self'");
      expect(policy.get("style-src"), path).toBe("'self'");
      expect(policy.get("default-src"), path).toBe("'self'");
      expect(policy.get("frame-ancestors"), path).toBe("'self'");
    }
  });
});

describe("start-up", () => {
  it("refuses an intake whose default fails its own rules, naming the agent, question and rule", {
    timeout: 60_000,
  }, async () => {
    const broken = {
      name: "broken",
      systemPrompt: "x",
      intake: {
        questions: [
          { id: "seats", prompt: "Seats?", input: { type: "number" as const, max: 9 }, defaults: ["12"] },
        ],
      },
    };
    await expect(startServer({ agents: [broken] })).rejects.toThrow(
      /Agent "broken".*questions\["seats"\]\.defaults\[0\].*at most 9/,
    );
  });
});

describe("streams", () => {
  it("leaves no listener behind on the server's closing signal when a stream ends", async () => {
    const run = await chat(server, "ada", "Say hello", { agent: "plain" });
    const feeds = new RunFeeds(server.store);
    const closing = new AbortController();
    for (let index = 0; index < 3; index++) {
      const response = frameStreamResponse({
        store: server.store,
        feeds,
        runId: run.runId,
        after: 0,
        followAll: false,
        closing: closing.signal,
      });
      expect(await response.text()).toContain("run-finish");
    }
    expect(getEventListeners(closing.signal, "abort")).toHaveLength(0);
  });

  /** Opens a run's stream and reads it to its end, failing if it is still open after 5 s. */
  async function readToEnd(runId: string, query: string, lastEventId?: string) {
    const response = await fetch(`${server.url}/agent/runs/${runId}/stream${query}`, {
      headers: {
        "x-actor-id": "ada",
        ...(lastEventId !== undefined ? { "last-event-id": lastEventId } : {}),
      },
      signal: AbortSignal.timeout(5_000),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    return [...text.matchAll(/^data: (.*)$/gm)].map(
      (match) => (JSON.parse(match[1] ?? "") as { kind: string }).kind,
    );
  }

  it("ends a finished run's stream opened at or past its last frame, having sent what there is", async () => {
    const run = await chat(server, "ada", "Say hello", { agent: "plain" });
    const last = run.frames.at(-1)?.seq ?? 0;
    expect(run.frames.at(-1)?.frame.kind).toBe("run-finish");
    for (const after of [last, last + 1, 999_999_999]) {
      expect(await readToEnd(run.runId, `?after=${after}`)).toEqual([]);
      expect(await readToEnd(run.runId, `?after=${after}&follow=all`)).toEqual([]);
      expect(await readToEnd(run.runId, "", String(after))).toEqual([]);
    }
    expect(await readToEnd(run.runId, `?after=${last - 1}`)).toEqual(["run-finish"]);
  });

  it("ends a cancelled run's stream opened at its last frame", async () => {
    const run = await chat(server, "ada", "Refactor the lexer", { agent: "refactorer" });
    expect((await call(server, "POST", `/agent/runs/${run.runId}/cancel`, "ada", {})).status).toBe(200);
    const frames = await server.store.frames.after(run.runId, 0);
    expect(frames.at(-1)?.frame).toMatchObject({ kind: "run-finish", status: "cancelled" });
    expect(await readToEnd(run.runId, `?after=${frames.at(-1)?.seq}&follow=all`)).toEqual([]);
  });

  it("follows a waiting run opened past its last frame until the run's end", async () => {
    const run = await chat(server, "ada", "Refactor the printer", { agent: "refactorer" });
    const reading = readToEnd(run.runId, "?after=999999999&follow=all");
    const answered = await call(server, "POST", "/agent/tool-call/answer", "ada", {
      toolCallId: `intake-${run.runId}`,
    });
    expect(answered.status).toBe(200);
    const kinds = await reading;
    expect(kinds.at(0)).toBe("tool-output");
    expect(kinds.at(-1)).toBe("run-finish");
  });
});
