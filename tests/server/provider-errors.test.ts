import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type BaseEvent, EventType, HttpAgent, type RunErrorEvent } from "@ag-ui/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentConfig } from "../../server/agents/types";
import { resolveModel } from "../../server/model/resolve-model";
import type { PrepickServer } from "../../server/server";
import { type CapturedLog, captureLog } from "../../server/testing/capture-log";
import { chat, startServer } from "../../server/testing/harness";

// What a provider's refusal says, as OpenAI words a 401: a fragment of the key it was sent.
const KEY = "sk-live-7Hd9qSECRETk2P";
const REFUSAL = {
  error: { message: `Incorrect API key provided: ${KEY.slice(0, 12)}****k2P.`, code: "invalid_api_key" },
};

let provider: Server;
let closedPort = 0;
let server: PrepickServer;
let log: CapturedLog;

/** A port nothing listens on: taken, then let go. */
async function freePort(): Promise<number> {
  const probe = createHttpServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  provider = createHttpServer((request, response) => {
    request.resume();
    response.writeHead(401, { "content-type": "application/json" });
    response.end(JSON.stringify(REFUSAL));
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  const { port } = provider.address() as AddressInfo;
  closedPort = await freePort();
  const keyed: AgentConfig = {
    name: "keyed",
    systemPrompt: "You answer.",
    model: resolveModel({
      PREPICK_MODEL_BASE_URL: `http://127.0.0.1:${port}/v1`,
      PREPICK_MODEL_ID: "gpt-test",
      PREPICK_MODEL_API_KEY: KEY,
    }),
  };
  const offline: AgentConfig = {
    name: "offline",
    systemPrompt: "You answer.",
    model: resolveModel({
      PREPICK_MODEL_BASE_URL: `http://127.0.0.1:${closedPort}/v1`,
      PREPICK_MODEL_ID: "gpt-test",
    }),
  };
  log = captureLog();
  server = await startServer({ agents: [keyed, offline] });
}, 60_000);

afterAll(async () => {
  log.restore();
  await server?.close();
  await new Promise<void>((resolve) => provider.close(() => resolve()));
});

/** Every trace of the provider's own words or whereabouts a person could be shown. */
function expectNoLeak(text: string) {
  expect(text).not.toContain("SECRET");
  expect(text).not.toContain("sk-live");
  expect(text).not.toContain("ECONNREFUSED");
  expect(text).not.toContain(`127.0.0.1:${closedPort}`);
  expect(text).not.toMatch(/Incorrect API key/);
}

describe("a provider's failure", { timeout: 60_000 }, () => {
  it("reaches the person as a code, a sentence and an error id; its text only the log, under that id", async () => {
    for (const agent of ["keyed", "offline"]) {
      const turn = await chat(server, `person-${agent}`, "Hello", { agent });
      const finish = turn.frames.at(-1)?.frame as {
        status: string;
        code: string;
        error: string;
        errorId: string;
      };
      expect(finish).toMatchObject({ kind: "run-finish", status: "failed", code: "model-failed" });
      expect(finish.error).toBe("The model could not answer, so the reply stopped.");
      expectNoLeak(JSON.stringify(turn.frames));
      const stored = await server.store.runs.get(turn.runId);
      expectNoLeak(String(stored?.error));
      const entry = log.entry(finish.errorId);
      expect(entry, agent).toMatchObject({ event: "run failed", runId: turn.runId, code: "model-failed" });
      expect(JSON.stringify(entry)).toMatch(
        agent === "keyed" ? /Incorrect API key/ : /ECONNREFUSED|fetch failed|Cannot connect/,
      );
    }
  });

  it("reaches an AG-UI client as RUN_ERROR with the sentence and the failure's code and id, never the key", async () => {
    const agent = new HttpAgent({
      url: `${server.url}/agent/ag-ui?agent=keyed`,
      headers: { "x-actor-id": "ag-ui-person" },
      threadId: "thread-ag-ui-keyed",
    });
    agent.addMessage({ id: "m1", role: "user", content: "Hello" });
    const events: BaseEvent[] = [];
    await agent.runAgent({}, { onEvent: ({ event }) => void events.push(event) }).catch(() => undefined);
    const error = events.find((event): event is RunErrorEvent => event.type === EventType.RUN_ERROR);
    expect(error?.message).toBe("The model could not answer, so the reply stopped.");
    const carried = (error as { metadata?: { prepick?: { code?: string; errorId?: string } } }).metadata
      ?.prepick;
    expect(carried?.code).toBe("model-failed");
    expect(carried?.errorId).toMatch(/^err-/);
    expectNoLeak(JSON.stringify(events));
    expect(log.entry(carried?.errorId ?? "")).toBeDefined();
  });
});
