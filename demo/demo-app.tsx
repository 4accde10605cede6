import { startTransition, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { AgentInbox } from "@/components/ui/agent-inbox";
import { ChatThreadList } from "@/components/ui/chat-thread-list";
import { InboxCount } from "@/components/ui/inbox-count";
import { englishMessages, type PrepickMessages } from "@/hooks/prepick-messages";
import { PrepickMessagesProvider } from "@/hooks/prepick-messages-context";
import { usePendingCalls } from "@/hooks/use-pending-calls";
import { useThreads } from "@/hooks/use-threads";
import { ToolCallClient } from "@/lib/prepick/transport/tool-call-client";
import { AgentPicker } from "./agent-picker";
import { fetchAgents, type HostedAgent, TRY_MESSAGES } from "./agents";
import { DemoChat } from "./demo-chat";
import { arabicMessages, germanMessages } from "./demo-messages";
import { arabicWords, type DemoWords, englishWords, germanWords } from "./demo-words";
import { ThemeToggle } from "./theme-toggle";

type AgentsState =
  | { status: "loading" }
  | { status: "failed"; message: string }
  | { status: "ready"; agents: HostedAgent[] };

/** A language the page can show: the chat's messages, the page's own words, its `lang` and `dir`. */
interface Language {
  messages: PrepickMessages;
  words: DemoWords;
  lang: string;
  dir: "ltr" | "rtl";
}

/** The languages `?lang=` can show the page in, besides English; Arabic is right to left. */
const LANGUAGES: Record<string, Language> = {
  de: { messages: germanMessages, words: germanWords, lang: "de", dir: "ltr" },
  ar: { messages: arabicMessages, words: arabicWords, lang: "ar", dir: "rtl" },
};
const language: Language = LANGUAGES[new URLSearchParams(window.location.search).get("lang") ?? ""] ?? {
  messages: englishMessages,
  words: englishWords,
  lang: "en",
  dir: "ltr",
};
const { words } = language;

/** The page's `?agent=` and `?thread=`, so a reload (or a shared link) reopens the same conversation. */
function readUrl(): { agent: string | null; thread: string | null } {
  const params = new URLSearchParams(window.location.search);
  return { agent: params.get("agent"), thread: params.get("thread") };
}

/** The call a link opens on its own page, `/answer/<callId>` (the link webhooks send), if any. */
function readCallId(): string | undefined {
  const match = /^\/answer\/([^/]+)$/.exec(window.location.pathname);
  if (!match?.[1]) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/**
 * Writes the agent and thread into the URL: a new history entry when the conversation changes,
 * so Back and Forward move between conversations; in place otherwise.
 */
function writeUrl(agent: string, thread: string): void {
  const url = new URL(window.location.href);
  const sameThread = url.searchParams.get("thread") === thread;
  const had = url.searchParams.has("thread");
  url.searchParams.set("agent", agent);
  url.searchParams.set("thread", thread);
  if (url.href === window.location.href) return;
  if (had && !sameThread) window.history.pushState(null, "", url);
  else window.history.replaceState(null, "", url);
}

/** Below Tailwind's `md` breakpoint the agents move into a dialog, so the conversation has the screen. */
const NARROW_QUERY = "(max-width: 47.99rem)";

/** Whether the page is narrower than `md`, following the window as it resizes. */
function useNarrow(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const query = window.matchMedia(NARROW_QUERY);
      query.addEventListener("change", listener);
      return () => query.removeEventListener("change", listener);
    },
    () => window.matchMedia(NARROW_QUERY).matches,
  );
}

/** The demo page: pick one of the server's agents and chat with it through the registry's block. */
export function DemoApp() {
  const [agents, setAgents] = useState<AgentsState>({ status: "loading" });
  const [selected, setSelected] = useState(() => readUrl().agent);
  // The open conversation: one on the server (from the address or a list), or one the chat starts
  // itself, whose id it tells once it has made it (it is not read from the server, which has no
  // such thread until its first message). Each new `chat` mounts the chat afresh.
  const [conversation, setConversation] = useState<{ id: string | undefined; listed: boolean; chat: number }>(
    () => {
      const thread = readUrl().thread;
      return { id: thread ?? undefined, listed: thread !== null, chat: 0 };
    },
  );
  const threadId = conversation.id;
  const [callId, setCallId] = useState(readCallId);
  const client = useMemo(() => new ToolCallClient(), []);
  const inbox = usePendingCalls({ client });
  const threads = useThreads({ client, pending: inbox.calls });

  // Back and Forward move between conversations.
  useEffect(() => {
    const onPopState = () => {
      setCallId(readCallId());
      const { agent: fromUrl, thread } = readUrl();
      if (fromUrl) setSelected(fromUrl);
      if (thread) setConversation((open) => ({ id: thread, listed: true, chat: open.chat + 1 }));
    };
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, []);

  // A listed conversation switched to: the list reads its first page again (it read it on load).
  const { refresh } = threads;
  const listedFor = useRef(conversation.chat);
  useEffect(() => {
    if (listedFor.current === conversation.chat) return;
    listedFor.current = conversation.chat;
    if (conversation.listed) void refresh();
  }, [conversation.chat, conversation.listed, refresh]);

  useEffect(() => {
    const controller = new AbortController();
    fetchAgents(controller.signal).then(
      // The chat's first render is the page's largest: in slices, like the page's own (main.tsx).
      (list) => startTransition(() => setAgents({ status: "ready", agents: list })),
      (error: unknown) => {
        if (!controller.signal.aborted) setAgents({ status: "failed", message: String(error) });
      },
    );
    return () => controller.abort();
  }, []);

  // The whole page speaks the chosen language, so a screen reader and the browser's fonts do too.
  useEffect(() => {
    document.documentElement.lang = language.lang;
    document.documentElement.dir = language.dir;
  }, []);

  const list = agents.status === "ready" ? agents.agents : [];
  const agent = list.find((candidate) => candidate.name === selected) ?? list[0];

  useEffect(() => {
    if (agent && threadId !== undefined && callId === undefined) writeUrl(agent.name, threadId);
  }, [agent, threadId, callId]);

  const startConversation = (name: string) => {
    setSelected(name);
    setConversation((open) => ({ id: undefined, listed: false, chat: open.chat + 1 }));
  };

  // Opening the conversation already open loads it again (it was answered from the inbox).
  const openConversation = (id: string) => {
    const known = threads.threads.find((thread) => thread.id === id)?.agent;
    const fromInbox = inbox.calls.find(({ call }) => call.threadId === id)?.call.agent;
    const name = known ?? fromInbox;
    if (name) setSelected(name);
    setConversation((open) => ({ id, listed: true, chat: open.chat + 1 }));
  };
  // The chat started a conversation of its own: its id, for the address and the list's selection.
  const started = (id: string) => setConversation((open) => (open.listed ? open : { ...open, id }));
  // The call's page opened its conversation: the page is the conversation's, at `/`.
  const leaveCall = (id: string, name?: string) => {
    setCallId(undefined);
    window.history.pushState(null, "", "/");
    if (name) setSelected(name);
    setConversation((open) => ({ id, listed: true, chat: open.chat }));
  };
  const titleOf = (id: string) => threads.threads.find((thread) => thread.id === id)?.title;

  const narrow = useNarrow();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const pick = (name: string) => {
    startConversation(name);
    dialogRef.current?.close();
  };
  const open = (id: string) => {
    openConversation(id);
    dialogRef.current?.close();
  };
  const openDialog = () => {
    dialogRef.current?.showModal();
    setDialogOpen(true);
  };

  const agentsPanel = (
    <>
      {agents.status === "loading" && <p className="text-muted-foreground text-sm">{words.loadingAgents}</p>}
      {agents.status === "failed" && (
        <p role="alert" className="text-destructive text-sm">
          {words.agentsFailed(agents.message)}
        </p>
      )}
      {agent && <AgentPicker agents={list} value={agent.name} onValueChange={pick} words={words} />}
      {agent && (
        <button
          type="button"
          onClick={() => pick(agent.name)}
          className="self-start rounded-md border px-3 py-1.5 text-sm hover:border-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          {language.messages.chat.newConversation}
        </button>
      )}
      <AgentInbox id="inbox" calls={inbox.calls} threadTitle={titleOf} onOpenThread={open} />
      <ChatThreadList
        threads={threads.threads}
        selectedId={threadId}
        onSelect={open}
        hasMore={threads.hasMore}
        onLoadMore={() => void threads.loadMore()}
      />
    </>
  );

  return (
    <PrepickMessagesProvider messages={language.messages}>
      <div className="flex h-dvh flex-col bg-background text-foreground">
        <header className="flex items-center justify-between gap-2 border-b px-4 py-2 md:px-6 md:py-3">
          <div className="min-w-0">
            <p className="truncate font-semibold text-lg">Prepick</p>
            <p className="hidden text-muted-foreground text-sm md:block">{words.tagline}</p>
          </div>
          <div className="flex shrink-0 items-center gap-2">
            {narrow ? (
              <button
                type="button"
                aria-haspopup="dialog"
                aria-expanded={dialogOpen}
                onClick={openDialog}
                className="max-w-[7rem] truncate rounded-md border px-3 py-1.5 text-sm hover:border-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              >
                {words.agentButton(agent?.name ?? "…")}
              </button>
            ) : null}
            {narrow ? (
              // On a phone the inbox is in the dialog with the agents.
              <button
                type="button"
                aria-haspopup="dialog"
                onClick={openDialog}
                className="inline-flex min-h-11 items-center gap-1 rounded-md px-1.5 text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              >
                {language.messages.chat.inbox} <InboxCount count={inbox.count} live />
              </button>
            ) : (
              <a
                href="#inbox"
                className="inline-flex min-h-11 items-center gap-2 rounded-md px-2 text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              >
                {language.messages.chat.inbox} <InboxCount count={inbox.count} live />
              </a>
            )}
            <ThemeToggle label={words.darkMode} />
          </div>
        </header>
        {narrow ? (
          // A modal dialog on a phone: the page behind is inert, Escape closes it, the focus returns.
          <dialog
            ref={dialogRef}
            aria-label={words.agents}
            onClose={() => setDialogOpen(false)}
            className="m-0 max-h-dvh w-full max-w-none overflow-y-auto border-b bg-background p-4 text-foreground backdrop:bg-black/50"
          >
            <div className="flex flex-col gap-4">
              <div className="flex items-center justify-between gap-2">
                <p className="font-medium">{words.agents}</p>
                <button
                  type="button"
                  onClick={() => dialogRef.current?.close()}
                  className="rounded-md border px-3 py-1.5 text-sm hover:border-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                >
                  {language.messages.chat.close}
                </button>
              </div>
              {agentsPanel}
            </div>
          </dialog>
        ) : null}
        <div className="grid min-h-0 flex-1 grid-cols-1 grid-rows-1 md:grid-cols-[18rem_1fr]">
          {narrow ? null : (
            <aside aria-label={words.agents} className="flex flex-col gap-6 overflow-y-auto border-r p-6">
              {agentsPanel}
            </aside>
          )}
          <main className="min-h-0 min-w-0">
            {agent && (
              <DemoChat
                key={conversation.chat}
                agent={agent.name}
                {...(conversation.listed && threadId !== undefined ? { threadId } : {})}
                {...(callId !== undefined ? { callId } : {})}
                onThreadChange={callId !== undefined ? leaveCall : started}
                navigation={false}
                title={agent.name}
                suggestions={TRY_MESSAGES[agent.name] ?? []}
                className="h-full"
                dir={language.dir}
                lang={language.lang}
              />
            )}
          </main>
        </div>
      </div>
    </PrepickMessagesProvider>
  );
}
