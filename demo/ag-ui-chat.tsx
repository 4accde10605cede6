import { useChat } from "@ai-sdk/react";
import { type ComponentProps, useEffect, useMemo, useRef } from "react";
import { Button } from "@/components/ui/button";
import { ChatApproval } from "@/components/ui/chat-approval";
import { ChatComposer } from "@/components/ui/chat-composer";
import { ChatElicitation } from "@/components/ui/chat-elicitation";
import type { ChatBlockRenderer } from "@/components/ui/chat-message";
import { ChatTranscript } from "@/components/ui/chat-transcript";
import { PrepickMessagesProvider, usePrepickMessages } from "@/hooks/prepick-messages-context";
import { useChatTranscript } from "@/hooks/use-chat-transcript";
import { AgUiChatTransport } from "@/lib/prepick/transport/ag-ui";
import { cn } from "@/lib/utils";
import type { AgentChat } from "../registry/blocks/agent-chat/agent-chat";
import { useWaitingCalls } from "../registry/blocks/agent-chat/use-waiting-calls";

type ChatProps = ComponentProps<typeof AgentChat>;

const renderBlock: ChatBlockRenderer = (block) =>
  block.type === "elicitation" ? (
    <ChatElicitation block={block} autoFocus />
  ) : block.type === "approval" ? (
    <ChatApproval block={block} autoFocus />
  ) : undefined;

/**
 * The demo's chat over AG-UI: an `AgUiChatTransport` on the server's `POST /agent/ag-ui`, with
 * the thread kept in `localStorage` so a reload rebuilds it. AG-UI has no cancel request: Stop
 * ends the stream the page reads, and the run goes on on the server.
 */
export function AgUiChat({
  agent,
  threadId,
  onThreadChange,
  navigation: _navigation,
  title,
  suggestions = [],
  messages: own,
  className,
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
  const chat = useChat({ ...(threadId !== undefined ? { id: threadId } : {}), transport });
  const transcript = useChatTranscript(chat, { transport, messages });
  // The latest turn waits on a question set or an approval: a new message would be refused.
  const waiting = useWaitingCalls(transcript.messages) !== "";
  const streaming = chat.status === "submitted" || chat.status === "streaming";

  const chatRef = useRef(chat);
  chatRef.current = chat;
  // A conversation started here (no `threadId`): the page hears its id, as from the block.
  const startedId = useRef(threadId === undefined ? chat.id : undefined);
  const onThreadChangeRef = useRef(onThreadChange);
  onThreadChangeRef.current = onThreadChange;
  useEffect(() => {
    if (startedId.current !== undefined) onThreadChangeRef.current?.(startedId.current);
  }, []);
  useEffect(() => {
    if (threadId === undefined) return;
    let cancelled = false;
    void transport.loadThread(threadId).then((loaded) => {
      if (!cancelled && loaded.length > 0) chatRef.current.setMessages(loaded);
    });
    return () => {
      cancelled = true;
    };
  }, [transport, threadId]);

  const send = (text: string) => {
    if (chat.error) chat.clearError();
    void chat.sendMessage({ text });
  };
  return (
    <PrepickMessagesProvider messages={messages}>
      <div
        data-slot="agent-chat"
        data-protocol="ag-ui"
        data-status={waiting ? "waiting" : chat.status}
        className={cn("flex h-dvh flex-col bg-background text-foreground", className)}
        {...props}
      >
        <header data-slot="agent-chat-header" className="flex items-center gap-3 border-b px-4 py-3">
          <h1 className="font-semibold text-base">{title ?? messages.chat.title}</h1>
          <span className="text-muted-foreground text-xs">AG-UI</span>
          <span className="text-muted-foreground text-xs" aria-live="polite">
            {waiting ? messages.chat.waiting : streaming ? messages.chat.working : null}
          </span>
        </header>
        <ChatTranscript
          messages={transcript.messages}
          renderBlock={renderBlock}
          empty={
            <div data-slot="agent-chat-empty" className="flex flex-col items-center gap-4 py-16 text-center">
              <p className="text-muted-foreground text-sm">{messages.chat.start}</p>
              {suggestions.length > 0 ? (
                <div className="flex flex-wrap justify-center gap-2">
                  {suggestions.map((suggestion) => (
                    <Button
                      key={suggestion}
                      type="button"
                      size="sm"
                      variant="outline"
                      onClick={() => send(suggestion)}
                    >
                      {suggestion}
                    </Button>
                  ))}
                </div>
              ) : null}
            </div>
          }
        />
        <div data-slot="agent-chat-footer" className="mx-auto flex w-full max-w-3xl flex-col gap-2 px-4 pb-4">
          {chat.error ? (
            <div
              role="alert"
              data-slot="agent-chat-error"
              className="rounded-md border border-destructive/40 px-3 py-2 text-destructive text-sm"
            >
              {messages.chat.replyFailed(chat.error.message)}
            </div>
          ) : null}
          <ChatComposer
            onSend={send}
            onStop={() => void chat.stop()}
            streaming={streaming}
            disabled={waiting}
            placeholder={waiting ? messages.composer.waitingPlaceholder : messages.composer.placeholder}
          />
        </div>
      </div>
    </PrepickMessagesProvider>
  );
}
