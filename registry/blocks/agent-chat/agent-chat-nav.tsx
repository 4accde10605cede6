"use client";

import * as React from "react";
import { AgentInbox } from "@/components/ui/agent-inbox";
import { Button } from "@/components/ui/button";
import { ChatThreadList } from "@/components/ui/chat-thread-list";
import { InboxCount } from "@/components/ui/inbox-count";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import type { PendingCalls } from "@/hooks/use-pending-calls";
import type { Threads } from "@/hooks/use-threads";

/** Below Tailwind's `md` breakpoint the conversations and the inbox move into a dialog. */
const NARROW_QUERY = "(max-width: 47.99rem)";

/** Whether the page is narrower than `md`, following the window as it resizes (wide on a server). */
export function useNarrow(): boolean {
  return React.useSyncExternalStore(
    (listener) => {
      const query = window.matchMedia?.(NARROW_QUERY);
      query?.addEventListener("change", listener);
      return () => query?.removeEventListener("change", listener);
    },
    () => window.matchMedia?.(NARROW_QUERY).matches ?? false,
    () => false,
  );
}

/** What the chat's navigation shows and does. */
export interface AgentChatNavProps {
  /** The waiting calls (`usePendingCalls`). */
  inbox: PendingCalls;
  /** The conversations (`useThreads`). */
  threads: Threads;
  /** The open conversation. */
  threadId: string;
  /** Opens a conversation (from the list or the inbox). */
  onOpen: (threadId: string) => void;
  /** Starts a new conversation. */
  onNew: () => void;
}

/** The panel's content: a new conversation, the inbox, the conversations. */
function NavPanel({
  inbox,
  threads,
  threadId,
  onOpen,
  onNew,
  inboxRef,
}: AgentChatNavProps & {
  inboxRef?: React.Ref<HTMLElement>;
}) {
  const { chat } = usePrepickMessages();
  const titleOf = (id: string) => threads.threads.find((thread) => thread.id === id)?.title;
  return (
    <>
      <Button type="button" variant="outline" className="min-h-11 self-start" onClick={onNew}>
        {chat.newConversation}
      </Button>
      <AgentInbox
        ref={inboxRef}
        tabIndex={-1}
        calls={inbox.calls}
        threadTitle={titleOf}
        onOpenThread={onOpen}
        className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      />
      <ChatThreadList
        label={chat.conversations}
        threads={threads.threads}
        selectedId={threadId}
        onSelect={onOpen}
        hasMore={threads.hasMore}
        onLoadMore={() => void threads.loadMore()}
      />
    </>
  );
}

/**
 * The chat's conversations and inbox: a side panel from `md` up, with an "Inbox" button in the
 * header that takes the focus there; below `md`, header buttons that open them in a modal dialog
 * (the page behind inert, Escape closes it, the focus returns), so the conversation has the screen.
 * The inbox's count beside the button is never a zero badge, and is said politely as it changes.
 */
export function useAgentChatNav(props: AgentChatNavProps): {
  actions: React.ReactNode;
  panel: React.ReactNode;
} {
  const { chat } = usePrepickMessages();
  const narrow = useNarrow();
  const dialogRef = React.useRef<HTMLDialogElement>(null);
  const inboxRef = React.useRef<HTMLElement>(null);
  const [open, setOpen] = React.useState(false);
  const close = () => dialogRef.current?.close();
  const openDialog = () => {
    dialogRef.current?.showModal();
    setOpen(true);
  };
  const inDialog: AgentChatNavProps = {
    ...props,
    onOpen: (id) => {
      props.onOpen(id);
      close();
    },
    onNew: () => {
      props.onNew();
      close();
    },
  };
  // The one count the page says aloud as it changes (the inbox heading's own is silent).
  const count = <InboxCount count={props.inbox.count} live />;
  const actions = narrow ? (
    <>
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="min-h-11"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={openDialog}
      >
        {chat.conversations}
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        className="min-h-11 gap-1"
        aria-haspopup="dialog"
        onClick={openDialog}
      >
        {chat.inbox} {count}
      </Button>
    </>
  ) : (
    <Button
      type="button"
      variant="ghost"
      size="sm"
      className="min-h-11 gap-2"
      onClick={() => {
        inboxRef.current?.scrollIntoView({ block: "nearest" });
        inboxRef.current?.focus();
      }}
    >
      {chat.inbox} {count}
    </Button>
  );
  const panel = narrow ? (
    <dialog
      ref={dialogRef}
      aria-label={chat.conversations}
      onClose={() => setOpen(false)}
      className="m-0 max-h-dvh w-full max-w-none overflow-y-auto border-b bg-background p-4 text-foreground backdrop:bg-black/50"
    >
      <div className="flex flex-col gap-4">
        <div className="flex justify-end">
          <Button type="button" variant="outline" className="min-h-11" onClick={close}>
            {chat.close}
          </Button>
        </div>
        <NavPanel {...inDialog} />
      </div>
    </dialog>
  ) : (
    <aside
      data-slot="agent-chat-nav"
      className="flex w-72 shrink-0 flex-col gap-6 overflow-y-auto border-e p-4"
    >
      <NavPanel {...props} inboxRef={inboxRef} />
    </aside>
  );
  return { actions, panel };
}
