import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { resolveModel } from "./resolve-model";
import { SCRIPTED_MODEL_ID } from "./scripted-model";

interface ChatRequest {
  model: string;
  stream: boolean;
  messages: Array<{ role: string; content?: unknown }>;
  tools?: Array<{ function: { name: string } }>;
}

/** What the stub saw: each request's body and authorization header. */
const received: Array<{ body: ChatRequest; authorization: string | undefined }> = [];

function chunk(delta: Record<string, unknown>, finish: string | null = null, usage?: Record<string, number>) {
  const body = {
    id: "chatcmpl-stub",
    object: "chat.completion.chunk",
    created: 0,
    model: "stub-model",
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

const usage = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

/**
 * Speaks the chat-completions streaming API: calls `read_status` when offered and no tool result
 * is in the conversation yet, otherwise streams a text in three deltas.
 */
function reply(body: ChatRequest): string[] {
  const hasResult = body.messages.some((message) => message.role === "tool");
  const offered = body.tools?.some((t) => t.function.name === "read_status") ?? false;
  if (offered && !hasResult) {
    return [
      chunk({
        role: "assistant",
        tool_calls: [
          {
            index: 0,
            id: "call_stub_1",
            type: "function",
            function: { name: "read_status", arguments: '{"serv' },
          },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ice":"web"}' } }] }),
      chunk({}, "tool_calls", usage),
      "data: [DONE]\n\n",
    ];
  }
  return [
    chunk({ role: "assistant", content: "Hello" }),
    chunk({ content: " from" }),
    chunk({ content: " the stub." }),
    chunk({}, "stop", usage),
    "data: [DONE]\n\n",
  ];
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer(async (request, response) => {
    if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
      response.writeHead(404).end();
      return;
    }
    const body = JSON.parse(await readBody(request)) as ChatRequest;
    received.push({ body, authorization: request.headers.authorization });
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const event of reply(body)) response.write(event);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("resolveModel", () => {
  test("is the scripted model when nothing is configured", () => {
    const model = resolveModel({});
    expect(model.modelId).toBe(SCRIPTED_MODEL_ID);
  });

  test("names the missing or malformed variable", () => {
    expect(() => resolveModel({ PREPICK_MODEL_BASE_URL: baseUrl })).toThrow(
      "PREPICK_MODEL_ID must name the model when PREPICK_MODEL_BASE_URL is set",
    );
    expect(() => resolveModel({ PREPICK_MODEL_BASE_URL: "localhost:11434", PREPICK_MODEL_ID: "m" })).toThrow(
      'PREPICK_MODEL_BASE_URL must be an http(s) URL, not "localhost:11434"',
    );
    expect(() => resolveModel({ PREPICK_MODEL_ID: "gpt" })).toThrow(
      "PREPICK_MODEL_ID is set but PREPICK_MODEL_BASE_URL is not: set both, or neither",
    );
  });

  test("streams text from an OpenAI-compatible API", async () => {
    const before = received.length;
    const model = resolveModel({
      PREPICK_MODEL_BASE_URL: baseUrl,
      PREPICK_MODEL_API_KEY: "test-key",
      PREPICK_MODEL_ID: "stub-model",
    });
    const result = streamText({ model, prompt: "Say hello" });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.join("")).toBe("Hello from the stub.");
    expect(deltas.length).toBe(3);
    expect((await result.usage).outputTokens).toBe(7);
    const request = received[before];
    expect(request?.authorization).toBe("Bearer test-key");
    expect(request?.body.model).toBe("stub-model");
    expect(request?.body.stream).toBe(true);
  });

  test("receives a tool call, runs the tool, and streams the answer", async () => {
    const before = received.length;
    const model = resolveModel({ PREPICK_MODEL_BASE_URL: baseUrl, PREPICK_MODEL_ID: "stub-model" });
    const inputs: unknown[] = [];
    const result = streamText({
      model,
      prompt: "How is the web tier?",
      tools: {
        read_status: tool({
          description: "Reads whether a service is healthy.",
          inputSchema: z.object({ service: z.enum(["api", "web"]) }),
          execute: async (input) => {
            inputs.push(input);
            return { healthy: true };
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(await result.text).toBe("Hello from the stub.");
    const steps = await result.steps;
    expect(steps[0]?.toolCalls).toMatchObject([
      { toolCallId: "call_stub_1", toolName: "read_status", input: { service: "web" } },
    ]);
    expect(inputs).toEqual([{ service: "web" }]);
    const second = received[before + 1]?.body.messages.find((message) => message.role === "tool");
    expect(JSON.stringify(second)).toContain('{\\"healthy\\":true}');
    expect(received[before]?.authorization).toBeUndefined();
  });
});
