import {
  type AbstractAgent,
  type BaseEvent,
  buildResumeArray,
  EventType,
  HttpAgent,
  type HttpAgentFetchFn,
  type Interrupt,
  type Message,
  type RunAgentParameters,
  type RunErrorEvent,
  type RunFinishedEvent,
  type State,
} from "@ag-ui/client";
import {
  type ChatRequestOptions,
  type ChatTransport,
  generateId,
  type UIMessage,
  type UIMessageChunk,
} from "ai";
import { loadPatternEngine } from "@/lib/prepick/core/pattern";
import type { ElicitationOutcome } from "@/lib/prepick/core/question";
import { requestHeaders, textOf } from "@/lib/prepick/transport/chat-request";
import type { ConversationTransport, RunStatus } from "@/lib/prepick/transport/conversation-transport";
import { replayThenFollow } from "@/lib/prepick/transport/replay-then-follow";
import { messageOf } from "@/lib/prepick/transport/tool-call-error";
import { askOutputChunk } from "@/lib/prepick/transport/tool-chunks";
import { AgUiToolCallClient } from "./ag-ui-tool-call-client";
import {
  type AgUiFoldState,
  everyInterruptDecided,
  foldAgUiEvent,
  initialAgUiFold,
  settleInterrupts,
} from "./fold-ag-ui-events";
import { hydrateAgUiThread, type SettledInterruptSet } from "./hydrate-ag-ui-thread";
import { PREPICK_METADATA_KEY } from "./interrupt-set";

/** Where a thread is kept across page loads: `localStorage`, `sessionStorage`, or anything alike. */
export type AgUiThreadStorage = Pick<Storage, "getItem" | "setItem">;

/** How {@link AgUiChatTransport} reaches the agent. */
export interface AgUiChatTransportOptions {
  /** The AG-UI endpoint: each run is an `HttpAgent` POST of a `RunAgentInput`, answered with SSE. */
  url?: string;
  /** Headers on every request to `url`. */
  headers?: Record<string, string>;
  /** A fetch to use instead of the global one. */
  fetch?: HttpAgentFetchFn;
  /**
   * The agent of a chat, instead of an `HttpAgent` at `url`: any `@ag-ui/client` agent (an
   * in-process `MastraAgent`, an `HttpAgent` subclass…). Called once per chat with its id, which
   * is the AG-UI thread id.
   */
  agent?: (threadId: string) => AbstractAgent;
  /** Keeps each thread's messages, state and open interrupts, so `loadThread` can rebuild it after a reload. */
  storage?: AgUiThreadStorage;
  /** The clock `expiresAt` is judged by; the system clock by default. */
  now?: () => Date;
}

/** One chat: its agent (which holds the AG-UI messages and state), and the assistant message being built. */
interface AgUiThread {
  chatId: string;
  agent: AbstractAgent;
  fold: AgUiFoldState;
  /** Every chunk of the current assistant message so far, replayed ahead of a continuation. */
  chunks: UIMessageChunk[];
  /** The interrupt sets the person settled, kept so a reload shows them where they were asked. */
  settled: SettledInterruptSet[];
}

/** What `storage` keeps of a thread. */
interface StoredThread {
  version: 1;
  messages: Message[];
  state: State;
  interrupts: Interrupt[];
  /** Absent in threads stored before settled sets were kept. */
  settled?: SettledInterruptSet[];
  /**
   * The assistant message the open interrupts were shown in, so a reload shows them in a message
   * with the same id. Absent while none are open, and in threads stored before it was kept.
   */
  openMessageId?: string;
}

type SendOptions = Parameters<ChatTransport<UIMessage>["sendMessages"]>[0];
type ReconnectOptions = Parameters<ChatTransport<UIMessage>["reconnectToStream"]>[0];

const STORAGE_PREFIX = "prepick:ag-ui:";

/** An interrupt the agent says was settled already (elsewhere: another tab, an inbox), and how. */
interface SettledElsewhere {
  interruptId: string;
  /** The outcome the agent holds, when the interrupt was a question set. */
  outcome?: ElicitationOutcome;
}

/**
 * Reads a `RUN_ERROR` a Prepick producer sends for a resume whose interrupt was already settled
 * (`code: "already_settled"`, `metadata.prepick: { interruptId, output }`). Another agent's
 * errors are not read.
 */
function settledElsewhere(event: RunErrorEvent): SettledElsewhere | undefined {
  if (event.code !== "already_settled") return undefined;
  const carried = (event as { metadata?: Record<string, unknown> }).metadata?.[PREPICK_METADATA_KEY] as
    | { interruptId?: unknown; output?: unknown }
    | undefined;
  if (typeof carried?.interruptId !== "string") return undefined;
  const output = carried.output as Partial<ElicitationOutcome> | undefined;
  const isOutcome = typeof output?.answers === "object" && typeof output?.skipped === "boolean";
  return {
    interruptId: carried.interruptId,
    ...(isOutcome ? { outcome: output as ElicitationOutcome } : {}),
  };
}

/** One step of a run as the transport reads it: an event of the agent's, or the run's failure. */
type RunStep = { event: BaseEvent } | { error: unknown };

/**
 * A run of `agent` as a stream of its events, in the order `@ag-ui/client` hands them on
 * (verified, chunks expanded), ending when the run ends, with its failure as the last step.
 * Cancelling the stream aborts the run.
 */
function runEvents(agent: AbstractAgent, parameters: RunAgentParameters): ReadableStream<RunStep> {
  let open = true;
  return new ReadableStream<RunStep>({
    start(controller) {
      const push = (step: RunStep) => {
        if (open) controller.enqueue(step);
      };
      agent
        .runAgent(parameters, { onEvent: ({ event }) => push({ event }) })
        .catch((error: unknown) => push({ error }))
        .finally(() => {
          if (!open) return;
          open = false;
          controller.close();
        });
    },
    cancel() {
      open = false;
      agent.abortRun();
    },
  });
}

/**
 * An AI SDK `ChatTransport` over an AG-UI agent. Each send is a run of `@ag-ui/client` (by default
 * an `HttpAgent` POST of a `RunAgentInput`, read as SSE, verified by the client), folded into the
 * same UI message parts the Prepick server's transport makes. A run that ends with interrupts
 * shows one `ask` part for their questions and an approval for each other interrupt; answering
 * them through `client` (which `useChatTranscript` does) and `resumeStream()` starts the next run
 * with the `resume` entries, and its reply lands in the same assistant message. The chat id is
 * the AG-UI thread id.
 */
export class AgUiChatTransport implements ConversationTransport {
  /** A continuation replays the whole assistant message first, so no part is ever lost. */
  readonly resumeStreamIsReplay = true;
  /** Answer, skip, approve and reject for the interrupts of every chat of this transport. */
  readonly client: AgUiToolCallClient;
  private readonly options: AgUiChatTransportOptions;
  private readonly threads = new Map<string, AgUiThread>();

  /** A transport for the agent at `options.url`, or the agents `options.agent` makes. */
  constructor(options: AgUiChatTransportOptions) {
    if (!options.url && !options.agent) throw new Error("AgUiChatTransport: pass { url } or { agent }.");
    this.options = options;
    this.client = new AgUiToolCallClient(() => this.threads.values(), options.now);
  }

  /** The `@ag-ui/client` agent of a chat: its `messages` and `state` are the thread as AG-UI sees it. */
  agent(chatId: string): AbstractAgent {
    return this.thread(chatId).agent;
  }

  /**
   * Rebuilds a chat from `storage` (empty without it, or for a thread never stored): the agent's
   * last `MESSAGES_SNAPSHOT`, or what its events added up to, with a question or approval the last
   * run left open still open and answerable. Pass the result as the chat's `messages`.
   */
  async loadThread(chatId: string): Promise<UIMessage[]> {
    const stored = this.read(chatId);
    if (!stored) return [];
    const thread = this.thread(chatId);
    thread.agent.setMessages(stored.messages);
    thread.agent.setState(stored.state);
    thread.agent.pendingInterrupts = stored.interrupts;
    thread.settled = stored.settled ?? [];
    if (stored.interrupts.length > 0 || thread.settled.length > 0) await loadPatternEngine();
    const hydrated = await hydrateAgUiThread(
      stored.messages,
      stored.interrupts,
      thread.settled,
      stored.openMessageId,
    );
    if (hydrated.last) Object.assign(thread, hydrated.last);
    return hydrated.messages;
  }

  /** A stored thread is read whole: there are no older pages. */
  hasOlder(_chatId: string): boolean {
    return false;
  }

  /** A stored thread is read whole: there are no older pages. */
  async loadOlder(_chatId: string): Promise<UIMessage[]> {
    return [];
  }

  /** Where the chat's latest run stands: `parked` when it ended with interrupts still open. */
  runStatus(chatId: string): RunStatus | undefined {
    return this.threads.get(chatId)?.fold.status;
  }

  /**
   * Aborts the chat's run. AG-UI has no cancel request: this closes the run's connection, and an
   * agent may go on on its own side (a Prepick server's run does; `POST /agent/runs/:runId/cancel`
   * ends it there).
   */
  async cancel(chatId: string): Promise<void> {
    this.threads.get(chatId)?.agent.abortRun();
  }

  /**
   * Runs the agent on the person's new message. Interrupts still open (the person wrote instead of
   * answering) are resumed as `cancelled`, or as decided where they were, since AG-UI requires
   * every interrupt to be covered.
   */
  async sendMessages(options: SendOptions): Promise<ReadableStream<UIMessageChunk>> {
    const last = options.messages.at(-1);
    if (options.trigger === "regenerate-message" || last?.role !== "user") {
      throw new Error(
        "AgUiChatTransport sends the person's new message: an AG-UI agent cannot regenerate one, and its interrupts are answered through transport.client.",
      );
    }
    const thread = this.thread(options.chatId);
    const resume = this.abandonOpenInterrupts(thread);
    thread.agent.addMessage({ id: last.id, role: "user", content: textOf(last) });
    thread.fold = initialAgUiFold(generateId());
    thread.chunks = [];
    const parameters: RunAgentParameters = {
      ...(options.body !== undefined ? { forwardedProps: options.body } : {}),
      ...(resume ? { resume } : {}),
    };
    return this.run(thread, parameters, [], options, last.id);
  }

  /**
   * Resumes the chat's interrupted run once the person decided every interrupt of its set (through
   * `client`): the assistant message is replayed with the settled parts, and the next run streams
   * on into it. Resolves `null` while an interrupt is still undecided, or when nothing is open.
   */
  async reconnectToStream(options: ReconnectOptions): Promise<ReadableStream<UIMessageChunk> | null> {
    const thread = this.threads.get(options.chatId);
    const pending = thread?.fold.pending;
    if (!thread || !pending || !everyInterruptDecided(thread.fold)) return null;
    const resume = buildResumeArray(pending.interrupts, thread.fold.decisions);
    this.keepSettled(thread);
    const replay = thread.chunks.slice();
    const settled = settleInterrupts(thread.fold);
    thread.fold = settled.state;
    thread.chunks.push(...settled.chunks);
    return this.run(thread, { resume }, [...replay, ...settled.chunks], options);
  }

  private thread(chatId: string): AgUiThread {
    let thread = this.threads.get(chatId);
    if (!thread) {
      thread = {
        chatId,
        agent: this.createAgent(chatId),
        fold: initialAgUiFold(generateId()),
        chunks: [],
        settled: [],
      };
      this.threads.set(chatId, thread);
    }
    return thread;
  }

  private createAgent(threadId: string): AbstractAgent {
    const { agent, url, headers, fetch } = this.options;
    if (agent) return agent(threadId);
    return new HttpAgent({
      url: url as string,
      threadId,
      ...(headers ? { headers } : {}),
      ...(fetch ? { fetch } : {}),
    });
  }

  /** Resume entries for interrupts the person passed over by writing a new message. */
  private abandonOpenInterrupts(thread: AgUiThread) {
    const interrupts = thread.agent.pendingInterrupts;
    if (interrupts.length === 0) return undefined;
    const cancelled = { status: "cancelled" } as const;
    const decisions = Object.fromEntries(
      interrupts.map((interrupt) => [interrupt.id, thread.fold.decisions[interrupt.id] ?? cancelled]),
    );
    thread.fold = { ...thread.fold, decisions };
    this.keepSettled(thread);
    return buildResumeArray(interrupts, decisions);
  }

  /** Records the pending interrupt set as the person settled it, anchored after the thread's last message. */
  private keepSettled(thread: AgUiThread) {
    const { pending, decisions, outcome, messageId } = thread.fold;
    if (!pending) return;
    thread.settled.push({
      after: thread.agent.messages.at(-1)?.id ?? null,
      messageId,
      interrupts: pending.interrupts,
      decisions,
      ...(outcome ? { outcome } : {}),
    });
  }

  /**
   * The response of one run: `replay`, then the run's events folded as they arrive, until the run
   * ends. `sent` is the person's message the run carries: a run that fails before it starts never
   * took it, so the agent's thread lets it go (the page puts it back in the composer).
   */
  private run(
    thread: AgUiThread,
    parameters: RunAgentParameters,
    replay: readonly UIMessageChunk[],
    options: ChatRequestOptions & { abortSignal?: AbortSignal },
    sent?: string,
  ): ReadableStream<UIMessageChunk> {
    const { agent } = thread;
    if (agent instanceof HttpAgent) agent.headers = { ...this.options.headers, ...requestHeaders(options) };
    const abort = () => agent.abortRun();
    options.abortSignal?.addEventListener("abort", abort, { once: true });
    // Every chunk of the assistant message is kept, to be replayed ahead of a continuation.
    const keep = (chunks: UIMessageChunk[]) => {
      thread.chunks.push(...chunks);
      return chunks;
    };
    const fail = (errorText: string): UIMessageChunk[] => {
      if (thread.fold.status === "failed") return [];
      if (sent !== undefined && !thread.fold.started) {
        agent.setMessages(agent.messages.filter((message) => message.id !== sent));
      }
      thread.fold = { ...thread.fold, status: "failed" };
      return keep([
        { type: "error", errorText },
        { type: "finish", finishReason: "other" },
      ]);
    };
    return replayThenFollow(replay, runEvents(agent, parameters), {
      fold: async (step) => {
        if ("error" in step) return { chunks: fail(messageOf(step.error) || "The run failed."), end: true };
        const { event } = step;
        // Reading an interrupt's questions checks their patterns, which needs the engine.
        if ((event as RunFinishedEvent).outcome?.type === "interrupt") await loadPatternEngine();
        const chunks: UIMessageChunk[] = [];
        if (event.type === EventType.RUN_ERROR && parameters.resume) {
          const elsewhere = settledElsewhere(event as RunErrorEvent);
          if (elsewhere) chunks.push(...this.acceptSettledElsewhere(thread, elsewhere));
        }
        const folded = foldAgUiEvent(thread.fold, event);
        thread.fold = folded.state;
        chunks.push(...folded.chunks);
        return { chunks: keep(chunks), end: false };
      },
      ended: () =>
        thread.fold.status === "running" ? fail("The agent's stream ended before its run finished.") : [],
      settled: () => {
        options.abortSignal?.removeEventListener("abort", abort);
        this.write(thread);
      },
    });
  }

  /**
   * The agent settled an interrupt before this page's resume reached it (from another tab, or an
   * inbox): it is no longer open, so the thread's next input does not resume it again, and a
   * question set shows the outcome the agent holds. The run's error still says what happened.
   */
  private acceptSettledElsewhere(thread: AgUiThread, elsewhere: SettledElsewhere): UIMessageChunk[] {
    const { interruptId, outcome } = elsewhere;
    thread.agent.pendingInterrupts = thread.agent.pendingInterrupts.filter(({ id }) => id !== interruptId);
    const kept = thread.settled.find((set) => set.interrupts.some(({ id }) => id === interruptId));
    // A lone asking interrupt's id is its `ask` part's; in a larger set the agent's outcome is one of several.
    if (!outcome || !kept?.outcome || kept.interrupts.length !== 1) return [];
    kept.outcome = outcome;
    return [askOutputChunk(interruptId, outcome)];
  }

  private read(chatId: string): StoredThread | undefined {
    const text = this.options.storage?.getItem(STORAGE_PREFIX + chatId);
    if (!text) return undefined;
    try {
      const stored = JSON.parse(text) as StoredThread;
      return stored.version === 1 && Array.isArray(stored.messages) ? stored : undefined;
    } catch {
      return undefined;
    }
  }

  private write(thread: AgUiThread) {
    const { messages, state, pendingInterrupts } = thread.agent;
    const stored: StoredThread = {
      version: 1,
      messages,
      state,
      interrupts: pendingInterrupts,
      settled: thread.settled,
      ...(pendingInterrupts.length > 0 ? { openMessageId: thread.fold.messageId } : {}),
    };
    try {
      this.options.storage?.setItem(STORAGE_PREFIX + thread.chatId, JSON.stringify(stored));
    } catch (error) {
      // A full or refused storage costs the reload, never the conversation on screen.
      console.warn(`AgUiChatTransport: could not store thread "${thread.chatId}": ${messageOf(error)}`);
    }
  }
}
