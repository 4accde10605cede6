import {
  type ChatAddToolApproveResponseFunction,
  type ChatAddToolOutputFunction,
  type DynamicToolUIPart,
  getToolName,
  isToolUIPart,
  type ToolUIPart,
  type UIMessage,
} from "ai";
import { type ApprovalEdits, readApprovalEdits } from "@/lib/prepick/core/approval-edits";
import { ASK_TOOL_NAME, describeAskIssues, parseAskInput } from "@/lib/prepick/core/ask-tool";
import { loadPatternEngine, patternEngineReady } from "@/lib/prepick/core/pattern";
import {
  type ElicitationRequest,
  ElicitationRequestSchema,
  type Question,
  QuestionSchema,
} from "@/lib/prepick/core/question";
import type { ToolCallActions } from "@/lib/prepick/transport/tool-call-client";
import { APPROVAL_EDITS_KEY } from "@/lib/prepick/transport/tool-chunks";
import { type ApprovalBlockHandle, createApprovalBlock } from "./approval-store";
import { createElicitation, settleLocally } from "./create-elicitation";
import { createStore } from "./create-store";
import { readOutcome } from "./describe-outcome";
import type { DraftStorage } from "./draft-storage";
import type { PrepickMessagesInput } from "./prepick-messages";
import { settleThrough } from "./settle-through";
import type {
  ApprovalBlock,
  ApprovalResult,
  ElicitationBlock,
  ToolCallStatus,
  TranscriptBlock,
  TranscriptMessage,
} from "./transcript-types";

/** The parts of a chat the transcript needs: `useChat`'s result and an AI SDK `Chat` both fit. */
export interface TranscriptChat {
  /** The chat's messages. */
  readonly messages: UIMessage[];
  /** Follows the run after an answer, skip or approval (through the transport's reconnect). */
  resumeStream: () => Promise<void>;
  /** Settles a client-side tool call (the plain AI SDK `ask` path). */
  addToolOutput: ChatAddToolOutputFunction<UIMessage>;
  /** Records an approval decision (the plain AI SDK approval path). */
  addToolApprovalResponse: ChatAddToolApproveResponseFunction;
  /** The chat's id (the reference server's thread id), for loading older messages. */
  readonly id?: string;
  /** Replaces the chat's messages; older messages are put first through it. */
  setMessages?: (messages: UIMessage[] | ((messages: UIMessage[]) => UIMessage[])) => void;
}

type AnyToolPart = ToolUIPart | DynamicToolUIPart;

/** A transcript made without a transport cannot settle the server's calls: it says so when asked to. */
const withoutClient: ToolCallActions = Object.fromEntries(
  (["answer", "skip", "approve", "reject"] as const).map((action) => [
    action,
    () =>
      Promise.reject(new Error("useChatTranscript: pass { transport } to answer questions from the server.")),
  ]),
) as unknown as ToolCallActions;

/** What every question set of the transcript is made with. */
export interface TranscriptBuilderOptions {
  /** Sentences in the app's language, laid over the English defaults. */
  messages?: PrepickMessagesInput;
  /** Where pending drafts are kept (none when left out). */
  drafts?: DraftStorage;
}

/** Whether a part is a question set: a dynamic `ask` part, or a static `tool-ask` one. */
export function isElicitationPart(part: UIMessage["parts"][number]): part is AnyToolPart {
  return isToolUIPart(part) && getToolName(part) === ASK_TOOL_NAME;
}

/**
 * A model's `ask` call the reference server refused: it streams such a call as an ordinary
 * tool call (a static part) followed by its tool error, and a question set it does ask as an
 * elicitation (a dynamic part). Nobody can answer it, so it shows as the failed tool call it is.
 */
function refusedByServer(part: AnyToolPart): boolean {
  return part.providerExecuted === true && (part.type !== "dynamic-tool" || part.state === "output-error");
}

const TOOL_STATUS: Partial<Record<AnyToolPart["state"], ToolCallStatus>> = {
  "output-available": "done",
  "output-error": "error",
  "output-denied": "denied",
};

/**
 * The decision an approval part carries once someone made it: approved or not, and why; kept on
 * the part after the call ran (or failed) too.
 */
function decisionOf(part: AnyToolPart): { approved: boolean; reason?: string } | undefined {
  const approval = part.approval;
  if (approval?.approved === undefined) return undefined;
  const { approved, reason } = approval;
  return reason === undefined ? { approved } : { approved, reason };
}

/** What an approved call did, from its part: running until its output or error arrives. */
function resultOf(part: AnyToolPart): ApprovalResult | undefined {
  if (part.approval?.approved !== true) return undefined;
  if (part.state === "output-available") return { status: "done", output: part.output };
  if (part.state === "output-error") return { status: "error", errorText: part.errorText };
  return { status: "running" };
}

/** The tool's description, when the server sent it as the tool's metadata. */
function descriptionOf(part: AnyToolPart): string | undefined {
  const description = part.toolMetadata?.description;
  return typeof description === "string" ? description : undefined;
}

/** An editable call's fields as questions, when the server sent them as the tool's metadata. */
function questionsOf(part: AnyToolPart): Question[] | undefined {
  const parsed = QuestionSchema.array().min(1).safeParse(part.toolMetadata?.questions);
  return parsed.success ? parsed.data : undefined;
}

/** What the person changed approving an editable call, as its approval response carried it. */
function editsOf(part: AnyToolPart): ApprovalEdits | undefined {
  return readApprovalEdits(part.callProviderMetadata?.[APPROVAL_EDITS_KEY]);
}

/** Its run's deadline, when the server sent one as the tool's metadata. */
function expiresAtOf(part: AnyToolPart): string | undefined {
  const expiresAt = part.toolMetadata?.expiresAt;
  return typeof expiresAt === "string" ? expiresAt : undefined;
}

/**
 * Turns chat messages into transcript messages, keeping identities stable: a message that did
 * not change keeps its transcript object, and each question set and approval keeps one block (and
 * one store) for its whole life, however often its message is rebuilt.
 */
export class TranscriptBuilder {
  private chat: TranscriptChat;
  private readonly client: ToolCallActions | undefined;
  private readonly options: TranscriptBuilderOptions;
  private readonly messages = new WeakMap<UIMessage, TranscriptMessage>();
  private readonly elicitations = new Map<string, ElicitationBlock>();
  private readonly approvals = new Map<string, ApprovalBlockHandle>();
  // The model's own `ask` calls already refused, so each is answered with its issues once.
  private readonly refused = new Set<string>();
  private pending: (() => void)[] = [];
  // The last build's output. A streamed delta replaces only the last message, so the prefix whose
  // message objects are unchanged is reused as is, found by comparing each entry's `message` (the
  // object it was built from, so a caller changing its own array in place cannot fool it) rather
  // than by a lookup per message.
  private lastOutput: readonly TranscriptMessage[] = [];
  private elicitationList: readonly ElicitationBlock[] = [];
  // Messages built while the pattern engine was on its way, to build again once it is here.
  private readonly waiting = new Set<UIMessage>();
  // Counts the times the transcript had to be built again though no message changed.
  private readonly rebuilds = createStore(0);

  /** A builder over `chat`; `client` settles provider-executed parts (left out for plain AI SDK backends). */
  constructor(
    chat: TranscriptChat,
    client: ToolCallActions | undefined,
    options: TranscriptBuilderOptions = {},
  ) {
    this.chat = chat;
    this.client = client;
    this.options = options;
  }

  /** Points the builder's actions at the latest chat object. */
  setChat(chat: TranscriptChat): void {
    this.chat = chat;
  }

  /**
   * The transcript of `messages`; unchanged messages keep their transcript objects. Only messages
   * that changed since the last build are rebuilt; the others cost a pointer comparison and a copy.
   */
  build(messages: readonly UIMessage[]): readonly TranscriptMessage[] {
    const previous = this.lastOutput;
    const count = messages.length;
    const limit = Math.min(count, previous.length);
    let kept = 0;
    while (kept < limit && messages[kept] === (previous[kept] as TranscriptMessage).message) kept++;
    // Entries from `kept` on are overwritten; slicing to the final length avoids regrowing it.
    const built = previous.slice(0, count);
    for (let index = kept; index < count; index++) built[index] = this.message(messages[index] as UIMessage);
    this.lastOutput = built;
    return built;
  }

  /** Applies what the last build learned (outputs that settle blocks); run it after render. */
  flush(): void {
    const pending = this.pending;
    this.pending = [];
    for (const apply of pending) apply();
  }

  /** Calls `listener` when the transcript must be built again though no message changed. */
  subscribe = (listener: () => void): (() => void) => this.rebuilds.subscribe(listener);

  /** Counts the times the transcript had to be built again though no message changed. */
  getVersion = (): number => this.rebuilds.getSnapshot();

  /**
   * Every question set of the transcript as last built, oldest first; the same array while they
   * are the same sets (a set from messages no longer shown, another chat's, is not among them).
   */
  elicitationBlocks(): readonly ElicitationBlock[] {
    const sets = this.lastOutput.flatMap((message) =>
      message.blocks.filter((block): block is ElicitationBlock => block.type === "elicitation"),
    );
    const kept = this.elicitationList;
    if (sets.length !== kept.length || sets.some((set, index) => set !== kept[index]))
      this.elicitationList = sets;
    return this.elicitationList;
  }

  /** A message's transcript object, built once per message object. */
  private message(message: UIMessage): TranscriptMessage {
    const cached = this.messages.get(message);
    if (cached) return cached;
    const built: TranscriptMessage = {
      id: message.id,
      role: message.role,
      blocks: message.parts.flatMap((part, index) => this.block(message, part, index)),
      message,
    };
    this.messages.set(message, built);
    return built;
  }

  private block(message: UIMessage, part: UIMessage["parts"][number], index: number): TranscriptBlock[] {
    const id = `${message.id}:${index}`;
    const messageId = message.id;
    if (part.type === "text" || part.type === "reasoning") {
      return [{ type: part.type, id, messageId, text: part.text, streaming: part.state === "streaming" }];
    }
    if (part.type === "step-start") return [];
    if (!isToolUIPart(part)) return [{ type: "other", id, messageId, part }];
    if (isElicitationPart(part) && !refusedByServer(part)) {
      const block = this.elicitation(message, part);
      if (block) return [block];
    }
    // A decided call keeps its approval card, approved or rejected, so the decision stays in view.
    if (part.state === "approval-requested" || decisionOf(part)) {
      return [this.approval(messageId, part)];
    }
    const approval = part.approval;
    const expiresAt = expiresAtOf(part);
    return [
      {
        type: "tool",
        id: part.toolCallId,
        messageId,
        toolName: getToolName(part),
        input: part.input,
        status: TOOL_STATUS[part.state] ?? "running",
        output: part.state === "output-available" ? part.output : undefined,
        errorText: part.state === "output-error" ? part.errorText : undefined,
        approval:
          approval?.approved === undefined
            ? undefined
            : { approved: approval.approved, reason: approval.reason },
        ...(expiresAt !== undefined ? { expiresAt } : {}),
      },
    ];
  }

  private requestOf(message: UIMessage, part: AnyToolPart): ElicitationRequest | undefined {
    if (part.state === "input-streaming") return undefined;
    if (part.providerExecuted) {
      const parsed = ElicitationRequestSchema.safeParse(part.input);
      return parsed.success ? parsed.data : undefined;
    }
    try {
      const parsed = parseAskInput(part.input);
      if (parsed.success) return parsed.request;
      if (part.state === "input-available") this.refuse(part, describeAskIssues(parsed.issues));
      return undefined;
    } catch (error) {
      // The model's own call has a pattern to check: it shows as running until the engine is here.
      if (patternEngineReady()) throw error;
      this.waitForPatternEngine(message);
      return undefined;
    }
  }

  /**
   * A malformed question set from the model goes back to it as an ordinary tool failure carrying
   * the issues, as the reference server does, so it can ask again; nobody is shown a form.
   */
  private refuse(part: AnyToolPart, issues: string) {
    if (this.refused.has(part.toolCallId)) return;
    this.refused.add(part.toolCallId);
    const tool = getToolName(part);
    this.pending.push(
      () =>
        void this.chat.addToolOutput({
          tool,
          toolCallId: part.toolCallId,
          state: "output-error",
          errorText: issues,
        }),
    );
  }

  private waitForPatternEngine(message: UIMessage) {
    this.waiting.add(message);
    if (this.waiting.size > 1) return;
    loadPatternEngine().then(
      () => {
        for (const waited of this.waiting) this.messages.delete(waited);
        this.waiting.clear();
        this.lastOutput = [];
        this.rebuilds.set((count) => count + 1);
      },
      () => this.waiting.clear(),
    );
  }

  private elicitation(message: UIMessage, part: AnyToolPart): ElicitationBlock | undefined {
    const messageId = message.id;
    const outcome = part.state === "output-available" ? readOutcome(part.output) : undefined;
    const denied = part.state === "output-denied";
    const existing = this.elicitations.get(part.toolCallId);
    if (existing) {
      if (outcome) this.pending.push(() => existing.settle(outcome));
      if (denied) this.pending.push(() => existing.dismiss());
      return existing;
    }
    const request = this.requestOf(message, part);
    if (!request) return undefined;
    const block = createElicitation({
      id: part.toolCallId,
      messageId,
      request,
      expiresAt: expiresAtOf(part),
      outcome,
      dismissed: denied,
      messages: this.options.messages,
      drafts: this.options.drafts,
      ...(part.providerExecuted
        ? this.serverSettle(part.toolCallId)
        : this.clientActions(part.toolCallId, getToolName(part), request)),
    });
    this.elicitations.set(part.toolCallId, block);
    return block;
  }

  /** Answer, skip and decide through the transport's client; the run is followed on once the call settles. */
  private serverSettle(toolCallId: string) {
    return settleThrough(this.client ?? withoutClient, toolCallId, () => void this.chat.resumeStream());
  }

  private clientActions(toolCallId: string, tool: string, request: ElicitationRequest) {
    return settleLocally(request.questions, async (outcome) => {
      await this.chat.addToolOutput({ tool, toolCallId, output: outcome });
      return outcome;
    });
  }

  private approval(messageId: string, part: AnyToolPart): ApprovalBlock {
    const existing = this.approvals.get(part.toolCallId);
    const responded = decisionOf(part);
    const result = resultOf(part);
    const edits = editsOf(part);
    if (existing) {
      // Decided elsewhere (another tab) or answered by the run: the card shows it, what the person
      // changed, and what it did.
      if (edits) this.pending.push(() => existing.setEdits(edits));
      if (responded) this.pending.push(() => existing.settle(responded));
      this.pending.push(() => existing.setResult(result));
      return existing;
    }
    const description = descriptionOf(part);
    const questions = questionsOf(part);
    const approvalId = part.approval?.id ?? part.toolCallId;
    const block = createApprovalBlock(
      {
        id: part.toolCallId,
        messageId,
        toolName: getToolName(part),
        input: part.input,
        ...(description !== undefined ? { description } : {}),
        ...(questions ? { questions } : {}),
        ...(edits ? { edits } : {}),
        expiresAt: expiresAtOf(part),
        state: responded && { status: "settled", ...responded, conflict: false },
        ...(result !== undefined ? { result } : {}),
        ...(this.options.messages ? { messages: this.options.messages } : {}),
        ...(this.options.drafts ? { drafts: this.options.drafts } : {}),
      },
      part.providerExecuted && this.client
        ? this.serverSettle(part.toolCallId).sendDecision
        : async (approved, reason) => {
            await this.chat.addToolApprovalResponse({ id: approvalId, approved, reason });
            return undefined;
          },
    );
    this.approvals.set(part.toolCallId, block);
    return block;
  }
}
