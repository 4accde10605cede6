import { useMemo } from "react";
import type { ElicitationBlock } from "@/hooks/transcript-types";
import { useAgentConversation } from "@/hooks/use-agent-conversation";
import { useElicitationQuestion, useElicitationSnapshot } from "@/hooks/use-elicitation";
import { AgentChatTransport, type ConversationTransport } from "@/lib/prepick/transport";

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

/** A whole conversation over any transport: AgentChatTransport, or AgUiChatTransport for an AG-UI agent. */
export function Conversation({ transport }: { transport: ConversationTransport }) {
  const c = useAgentConversation({ transport });
  const busy = c.status === "submitted" || c.status === "streaming";
  return (
    <div>
      {c.messages.map((m) => (
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
      {c.error && <p role="alert">{c.error.message}</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          c.send();
        }}
      >
        <input aria-label="Message" value={c.draft} onChange={(e) => c.setDraft(e.target.value)} />
        {busy ? (
          <button type="button" onClick={c.stop}>
            Stop
          </button>
        ) : (
          <button type="submit" disabled={c.status === "waiting" || c.draft.trim() === ""}>
            Send
          </button>
        )}
      </form>
    </div>
  );
}

export function MyAgentChat({ api = "http://localhost:3000", agent = "refactorer" }) {
  const transport = useMemo(() => new AgentChatTransport({ api, agent }), [api, agent]);
  return <Conversation transport={transport} />;
}
