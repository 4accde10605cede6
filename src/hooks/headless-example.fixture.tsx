import { useChat } from "@ai-sdk/react";
import { useMemo, useState } from "react";
import type { ElicitationBlock } from "@/hooks/transcript-types";
import { useChatTranscript } from "@/hooks/use-chat-transcript";
import { useElicitationQuestion, useElicitationSnapshot } from "@/hooks/use-elicitation";
import { AgentChatTransport } from "@/lib/prepick/transport";

function Question({ block, id }: { block: ElicitationBlock; id: string }) {
  const q = useElicitationQuestion(block, id); // re-renders only when this question changes
  return (
    <fieldset>
      <legend>{q.prompt}</legend>
      {q.options.map((o) => (
        <label key={o.value}>
          <input
            type={q.multiple ? "checkbox" : "radio"}
            checked={q.value.includes(o.value)}
            onChange={() => q.toggle(o.value)}
          />
          {o.label}
        </label>
      ))}
      {q.input && q.options.length === 0 && (
        <input aria-label={q.prompt} value={q.value[0] ?? ""} onChange={(e) => q.setValue(e.target.value)} />
      )}
      {q.error && <p role="alert">{q.error}</p>}
    </fieldset>
  );
}

function Elicitation({ block }: { block: ElicitationBlock }) {
  const s = useElicitationSnapshot(block);
  if (s.settled) {
    return (
      <p>
        {s.settled.skipped
          ? "Skipped: the agent's picks stand."
          : s.settled.answers.map((a) => `${a.prompt} → ${a.labels.join(", ")}`).join("; ")}
      </p>
    );
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void block.submit();
      }}
    >
      {block.preamble && <p>{block.preamble}</p>}
      {block.questions.map((q) => (
        <Question key={q.id} block={block} id={q.id} />
      ))}
      {s.error && <p role="alert">{s.error}</p>}
      {s.canRetry && (
        <button type="button" onClick={() => void block.retry()}>
          Retry
        </button>
      )}
      {s.skip.status === "confirming" ? (
        <p>
          {block.messages.skipConfirm.question}
          <button type="button" onClick={() => void block.skip()}>
            {block.messages.skipConfirm.discard}
          </button>
          <button type="button" onClick={() => block.cancelSkip()}>
            {block.messages.skipConfirm.keep}
          </button>
        </p>
      ) : (
        <>
          <button type="submit" disabled={s.busy || !s.isValid}>
            Confirm
          </button>
          <button type="button" disabled={s.busy} onClick={() => void block.skip()}>
            Skip: use the agent's picks
          </button>
        </>
      )}
    </form>
  );
}

export function MyAgentChat({ api = "http://localhost:3000", agent = "refactorer" }) {
  const transport = useMemo(() => new AgentChatTransport({ api, agent }), [api, agent]);
  const chat = useChat({ transport });
  const { messages } = useChatTranscript(chat, { transport });
  const busy = chat.status === "submitted" || chat.status === "streaming";
  const [text, setText] = useState("");
  return (
    <div>
      {messages.map((m) => (
        <div key={m.id}>
          {m.blocks.map((b) =>
            b.type === "text" ? (
              <p key={b.id}>{b.text}</p>
            ) : b.type === "elicitation" ? (
              <Elicitation key={b.id} block={b} />
            ) : null,
          )}
        </div>
      ))}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void chat.sendMessage({ text });
          setText("");
        }}
      >
        <input aria-label="Message" value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit" disabled={busy || text.trim() === ""}>
          Send
        </button>
      </form>
    </div>
  );
}
