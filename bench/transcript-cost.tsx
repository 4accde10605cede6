import type { UIMessage } from "ai";
import { type TranscriptMessage, useChatTranscript } from "prepick/hooks";
import { act, memo, Profiler, useState } from "react";
import { createRoot } from "react-dom/client";
import type { TranscriptChat } from "@/hooks/transcript-builder";
import { installDom } from "./dom";
import { type BenchRow, figure, median } from "./result";

const DELTAS = 300;
const ROUNDS = 3;

function history(count: number): UIMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `m${index}`,
    role: index % 2 === 0 ? "user" : "assistant",
    parts: [{ type: "text", text: `Message ${index}: ${"lorem ipsum ".repeat(8)}` }],
  }));
}

/** A chat whose messages the benchmark sets, as `useChat` would hand them to the hook. */
function fakeChat(messages: UIMessage[]): TranscriptChat {
  return {
    messages,
    resumeStream: async () => {},
    addToolOutput: async () => {},
    addToolApprovalResponse: async () => {},
  } as unknown as TranscriptChat;
}

/** What one streaming pass counts: message commits, and time spent inside the hook. */
const counts = { commits: 0, hookMs: 0 };
let push: (messages: UIMessage[]) => void = () => {};

const MessageView = memo(function MessageView({ message }: { message: TranscriptMessage }) {
  return (
    <Profiler
      id={message.id}
      onRender={() => {
        counts.commits += 1;
      }}
    >
      <div>
        {message.blocks.map((block) => (block.type === "text" ? <p key={block.id}>{block.text}</p> : null))}
      </div>
    </Profiler>
  );
});

function App({ initial, rows }: { initial: UIMessage[]; rows: boolean }) {
  const [messages, setMessages] = useState(initial);
  push = setMessages;
  const started = performance.now();
  const transcript = useChatTranscript(fakeChat(messages));
  counts.hookMs += performance.now() - started;
  if (!rows) return <div>{transcript.messages.length}</div>;
  return (
    <div>
      {transcript.messages.map((message) => (
        <MessageView key={message.id} message={message} />
      ))}
    </div>
  );
}

/**
 * Renders a transcript of `count` messages, then streams `DELTAS` text deltas into a new last
 * message, one commit each; returns the mean time per delta (the hook's own, and the whole commit)
 * and the messages committed per delta. With `rows`, the app renders a plain list of memoised
 * rows; without, only the transcript's length, so that the hook's own time is not the list's:
 * rendering 500 rows between two deltas leaves the next hook call on cold caches, which alone
 * makes even a hook that does no work per message several times slower.
 */
async function streamInto(
  count: number,
  rows: boolean,
): Promise<{ msPerDelta: number; hookMsPerDelta: number; commitsPerDelta: number }> {
  installDom();
  const base = history(count);
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => root.render(<App initial={base} rows={rows} />));
  let text = "";
  counts.commits = 0;
  counts.hookMs = 0;
  const started = performance.now();
  for (let index = 0; index < DELTAS; index++) {
    text += `word${index} `;
    // As the AI SDK does: earlier messages keep their objects, the streamed one is new.
    const streamed: UIMessage = { id: "streamed", role: "assistant", parts: [{ type: "text", text }] };
    await act(async () => push([...base, streamed]));
  }
  const elapsed = performance.now() - started;
  const result = {
    msPerDelta: elapsed / DELTAS,
    hookMsPerDelta: counts.hookMs / DELTAS,
    commitsPerDelta: counts.commits / DELTAS,
  };
  await act(async () => root.unmount());
  container.remove();
  return result;
}

/** Time per streamed delta with 500 messages in the transcript, against 10; and commits per delta. */
export async function transcriptCost(): Promise<BenchRow[]> {
  const small: number[] = [];
  const large: number[] = [];
  const smallCommit: number[] = [];
  const largeCommit: number[] = [];
  let commits = 0;
  await streamInto(10, true);
  await streamInto(10, false);
  for (let round = 0; round < ROUNDS; round++) {
    const few = await streamInto(10, true);
    const many = await streamInto(500, true);
    small.push((await streamInto(10, false)).hookMsPerDelta);
    large.push((await streamInto(500, false)).hookMsPerDelta);
    smallCommit.push(few.msPerDelta);
    largeCommit.push(many.msPerDelta);
    commits = many.commitsPerDelta;
  }
  const ratio = median(large) / median(small);
  const commitRatio = median(largeCommit) / median(smallCommit);
  return [
    {
      id: "transcript.hook-per-delta",
      metric: "Transcript cost: time per streamed delta in useChatTranscript, 500 messages",
      baseline: `${figure(median(small), "ms", 3)} (10 messages)`,
      ours: figure(median(large), "ms", 3),
      ratio: figure(ratio, "×"),
      target: "≤ 1.5×",
      pass: ratio <= 1.5,
    },
    {
      id: "transcript.commit-per-delta",
      metric: "Whole commit per streamed delta (hook + a plain list of memoised rows), 500 messages",
      baseline: `${figure(median(smallCommit), "ms", 3)} (10 messages)`,
      ours: figure(median(largeCommit), "ms", 3),
      ratio: figure(commitRatio, "×"),
      target: "—",
      pass: "reported",
    },
    {
      id: "renders.per-delta",
      metric: "Renders: messages committed per streamed delta (500 messages, React Profiler)",
      baseline: "1 (the streamed message)",
      ours: figure(commits, "messages"),
      ratio: figure(commits, "×"),
      target: "= 1",
      pass: commits === 1,
    },
  ];
}
