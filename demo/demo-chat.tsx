import { type ComponentProps, useMemo, useState } from "react";
import { PrepickMessagesProvider, usePrepickMessages } from "@/hooks/prepick-messages-context";
import type { ConversationStatus } from "@/hooks/use-agent-conversation";
import { AgUiChatTransport } from "@/lib/prepick/transport/ag-ui";
import { cn } from "@/lib/utils";
import { AgentChat } from "../registry/blocks/agent-chat/agent-chat";
import { AgentConversation } from "../registry/blocks/agent-chat/agent-conversation";

/**
 * Which wire the demo's chats speak: the Prepick server's own (`POST /agent/chat`), or AG-UI
 * (`POST /agent/ag-ui`) with `?protocol=ag-ui`, so the page shows the same agents, questions and
 * approvals reaching an AG-UI client. Read once, as the page loads.
 */
const protocol =
  new URLSearchParams(window.location.search).get("protocol") === "ag-ui" ? "ag-ui" : "prepick";

type ChatProps = ComponentProps<typeof AgentChat>;

/** The demo's chat: the registry's `AgentChat` block, or the same page over AG-UI. */
export function DemoChat(props: ChatProps) {
  return protocol === "ag-ui" ? <AgUiChat {...props} /> : <AgentChat {...props} />;
}

/**
 * The demo's chat over AG-UI: the block's own conversation on an `AgUiChatTransport` for the
 * server's `POST /agent/ag-ui`, with the thread kept in `localStorage` so a reload rebuilds it.
 * AG-UI has no cancel request: Stop ends the stream the page reads, and the run goes on on the
 * server.
 */
function AgUiChat({
  agent,
  threadId,
  title,
  suggestions = [],
  messages: own,
  className,
  // The block's own props that this page has no use for.
  api: _api,
  actorId: _actorId,
  fetch: _fetch,
  onThreadChange: _onThreadChange,
  navigation: _navigation,
  ...props
}: ChatProps) {
  const messages = usePrepickMessages(own);
  const transport = useMemo(
    () =>
      new AgUiChatTransport({
        url: `/agent/ag-ui${agent ? `?agent=${encodeURIComponent(agent)}` : ""}`,
        storage: window.localStorage,
      }),
    [agent],
  );
  const [status, setStatus] = useState<ConversationStatus>("ready");
  return (
    <PrepickMessagesProvider messages={messages}>
      <div
        data-slot="agent-chat"
        data-protocol="ag-ui"
        data-status={status}
        className={cn("flex h-dvh bg-background text-foreground", className)}
        {...props}
      >
        <AgentConversation
          transport={transport}
          {...(threadId !== undefined ? { threadId } : {})}
          title={title ?? messages.chat.title}
          actions={<span className="text-muted-foreground text-xs">AG-UI</span>}
          suggestions={suggestions}
          onStatus={setStatus}
        />
      </div>
    </PrepickMessagesProvider>
  );
}
