import { Chat } from "@ai-sdk/react";
import { DefaultChatTransport, type UIMessage, type UIMessageChunk } from "ai";
import { AgentChatTransport } from "prepick/transport";
import { conversationFrames } from "./conversation";
import { type BenchRow, figure, median } from "./result";

const FRAMES = 20_000;
const ROUNDS = 3;
// What one network read delivers: both streams arrive in pieces of this size.
const PIECE = 16 * 1024;

/** An SSE body served from memory in network-sized pieces. */
function sseResponse(text: string, headers: Record<string, string>): Response {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + PIECE));
      offset += PIECE;
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream", ...headers } });
}

/** The frames as the reference server's SSE body. */
function frameBody(): string {
  return conversationFrames(FRAMES)
    .map((frame, index) => `id: ${index + 1}\ndata: ${JSON.stringify(frame)}\n\n`)
    .join("");
}

function ourTransport(body: string): AgentChatTransport {
  return new AgentChatTransport({
    api: "http://bench.invalid",
    fetch: async () => sseResponse(body, { "x-run-id": "run-bench", "x-thread-id": "thread-bench" }),
  });
}

/** The UI message chunks our transport makes of the frames: the same content for the baseline. */
async function chunksOf(body: string): Promise<UIMessageChunk[]> {
  const stream = await ourTransport(body).sendMessages({
    chatId: "thread-bench",
    messageId: undefined,
    trigger: "submit-message",
    abortSignal: undefined,
    messages: [{ id: "user-1", role: "user", parts: [{ type: "text", text: "Go" }] }],
  });
  const chunks: UIMessageChunk[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

/** Sends one message through `Chat` and times it until the stream is fully folded. */
async function timeChat(
  transport: AgentChatTransport | DefaultChatTransport<UIMessage>,
): Promise<{ ms: number; parts: number }> {
  const chat = new Chat<UIMessage>({ id: "thread-bench", transport });
  const started = performance.now();
  await chat.sendMessage({ text: "Go" });
  const ms = performance.now() - started;
  if (chat.error) throw chat.error;
  return { ms, parts: chat.messages.at(-1)?.parts.length ?? 0 };
}

/**
 * Fold cost: the same 20 000-frame conversation through AgentChatTransport into the AI SDK's
 * `Chat`, against the same content as a UI message stream through `DefaultChatTransport`.
 */
export async function foldCost(): Promise<BenchRow> {
  const body = frameBody();
  const chunks = await chunksOf(body);
  const uiBody = `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("")}data: [DONE]\n\n`;
  const baselineTransport = () =>
    new DefaultChatTransport<UIMessage>({
      api: "http://bench.invalid/api/chat",
      fetch: async () => sseResponse(uiBody, { "x-vercel-ai-ui-message-stream": "v1" }),
    });
  const ours: number[] = [];
  const baseline: number[] = [];
  let partsOurs = 0;
  let partsBaseline = 0;
  // Alternate, after one warm-up each, so drift on a noisy machine hits both alike.
  await timeChat(ourTransport(body));
  await timeChat(baselineTransport());
  for (let round = 0; round < ROUNDS; round++) {
    const mine = await timeChat(ourTransport(body));
    const theirs = await timeChat(baselineTransport());
    ours.push(mine.ms);
    baseline.push(theirs.ms);
    partsOurs = mine.parts;
    partsBaseline = theirs.parts;
  }
  if (partsOurs !== partsBaseline) {
    throw new Error(`the two chats folded different messages: ${partsOurs} parts against ${partsBaseline}`);
  }
  const oursRate = FRAMES / (median(ours) / 1000);
  const baselineRate = FRAMES / (median(baseline) / 1000);
  return {
    id: "fold.frames-per-second",
    metric: `Fold cost: ${FRAMES.toLocaleString("en")} frames into Chat (${partsOurs} parts)`,
    baseline: `${figure(baselineRate, "frames/s", 0)} (DefaultChatTransport, same content)`,
    ours: figure(oursRate, "frames/s", 0),
    ratio: figure(oursRate / baselineRate, "×"),
    target: "≥ 0.9× the baseline's throughput",
    pass: oursRate >= 0.9 * baselineRate,
  };
}
