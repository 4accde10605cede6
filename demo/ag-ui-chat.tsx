import { generateId } from "ai";
import { type ComponentProps, useEffect, useMemo, useRef, useState } from "react";
import { PrepickMessagesProvider, usePrepickMessages } from "@/hooks/prepick-messages-context";
import type { ConversationStatus } from "@/hooks/use-agent-conversation";
import { AgUiChatTransport } from "@/lib/prepick/transport/ag-ui";
import { cn } from "@/lib/utils";
import type { AgentChat } from "../registry/blocks/agent-chat/agent-chat";
import { AgentConversation } from "../registry/blocks/agent-chat/agent-conversation";

type ChatProps = ComponentProps<typeof AgentChat>;

/**
 * The demo's chat over AG-UI: the block's own conversation on an `AgUiChatTransport` for the
 * server's `POST /agent/ag-ui`, with the thread kept in `localStorage` so a reload rebuilds it.
 * AG-UI has no cancel request: Stop ends the stream the page reads, and the run goes on on the
 * server.
 */
export function AgUiChat({
  agent,
  threadId,
  onThreadChange,
  title,
  suggestions = [],
  messages: own,
  className,
  // The block's own props that this page has no use for.
  api: _api,
  actorId: _actorId,
  fetch: _fetch,
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
  // A conversation started here (no `threadId`) has nothing stored yet; the page hears its id, as from the block.
  const [started] = useState(() => (threadId === undefined ? generateId() : undefined));
  const onThreadChangeRef = useRef(onThreadChange);
  onThreadChangeRef.current = onThreadChange;
  useEffect(() => {
    if (started !== undefined) onThreadChangeRef.current?.(started);
  }, [started]);
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
          threadId={threadId ?? started}
          fresh={started !== undefined}
          title={title ?? messages.chat.title}
          actions={<span className="text-muted-foreground text-xs">AG-UI</span>}
          suggestions={suggestions}
          onStatus={setStatus}
        />
      </div>
    </PrepickMessagesProvider>
  );
}
