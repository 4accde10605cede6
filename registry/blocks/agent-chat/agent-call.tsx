"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { ChatApproval } from "@/components/ui/chat-approval";
import { ChatElicitation } from "@/components/ui/chat-elicitation";
import { count } from "@/hooks/format-answer";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import { usePendingCall } from "@/hooks/use-pending-call";
import type { CallView } from "@/lib/prepick/core/inbox";
import type { ToolCallClient } from "@/lib/prepick/transport/tool-call-client";
import { cn } from "@/lib/utils";

/** What a call asks, in a few words: its heading. */
function callTitle(view: CallView, messages: ReturnType<typeof usePrepickMessages>): string {
  const { posted, agent } = view;
  if (posted.kind === "approval-request") return messages.inbox.approval(posted.toolName);
  return messages.inbox.questions(count(messages, posted.request.questions.length), agent);
}

/**
 * One call, opened by its own link (`/answer/:callId`, as a webhook links it): the question set
 * or the approval, answerable here on any device, and a way to its conversation. A call that
 * stopped waiting says what became of it; one that is not the person's says nothing waits there,
 * as the server answers for it (the same 404 as a call that does not exist). A waiting call takes
 * the focus as it appears; one that could not be read offers Try again.
 */
function AgentCall({
  client,
  callId,
  onOpenThread,
  className,
  ...props
}: React.ComponentProps<"section"> & {
  /** The client that reads and settles the call (`transport.client`). */
  client: ToolCallClient;
  /** The call's id. */
  callId: string;
  /** Opens the call's conversation. */
  onOpenThread: (threadId: string, agent: string) => void;
}) {
  const messages = usePrepickMessages();
  const state = usePendingCall({ client, callId, messages });
  const headingId = React.useId();
  const view = state.status === "waiting" || state.status === "settled" ? state.view : undefined;
  // Try again is gone while the call is read: failing again, the focus goes back to it.
  const tryAgainRef = React.useRef<HTMLButtonElement>(null);
  const retried = React.useRef(false);
  React.useEffect(() => {
    if (state.status === "failed" && retried.current) tryAgainRef.current?.focus({ preventScroll: true });
  }, [state]);
  return (
    <section
      data-slot="agent-call"
      data-status={state.status}
      aria-labelledby={view ? headingId : undefined}
      className={cn("mx-auto flex w-full max-w-2xl flex-col gap-4 overflow-y-auto p-4 md:p-6", className)}
      {...props}
    >
      {state.status === "loading" ? (
        <p role="status" className="text-muted-foreground text-sm">
          {messages.call.loading}
        </p>
      ) : null}
      {state.status === "not-found" || state.status === "failed" ? (
        <p role="alert" className="text-sm">
          {state.status === "not-found" ? messages.call.notFound : messages.call.failed}
        </p>
      ) : null}
      {state.status === "failed" ? (
        <div>
          <Button
            ref={tryAgainRef}
            type="button"
            variant="outline"
            className="min-h-11 sm:min-h-9"
            onClick={() => {
              retried.current = true;
              state.retry();
            }}
          >
            {messages.call.tryAgain}
          </Button>
        </div>
      ) : null}
      {view ? (
        <>
          <h1 id={headingId} className="font-semibold text-lg">
            {callTitle(view, messages)}
          </h1>
          {state.status === "waiting" ? (
            state.item.block.type === "elicitation" ? (
              <ChatElicitation block={state.item.block} autoFocus />
            ) : (
              <ChatApproval block={state.item.block} autoFocus />
            )
          ) : (
            <p role="status" className="text-sm">
              {messages.call.settled(
                view.status,
                view.posted.kind === "approval-request" ? "approval" : "questions",
              )}
            </p>
          )}
          <div>
            <Button
              type="button"
              variant="outline"
              className="min-h-11 sm:min-h-9"
              onClick={() => onOpenThread(view.threadId, view.agent)}
            >
              {messages.inbox.openConversation}
            </Button>
          </div>
        </>
      ) : null}
    </section>
  );
}

export { AgentCall };
