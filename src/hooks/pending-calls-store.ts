import type { InboxEvent, PendingCall } from "@/lib/prepick/core/inbox";
import type { ToolCallActions } from "@/lib/prepick/transport/tool-call-client";
import { createApprovalBlock } from "./approval-store";
import { createElicitation } from "./create-elicitation";
import { createStore } from "./create-store";
import type { DraftStorage } from "./draft-storage";
import type { PrepickMessagesInput } from "./prepick-messages";
import { settleThrough } from "./settle-through";
import type { ApprovalBlock, ElicitationBlock } from "./transcript-types";

/** One waiting call of the inbox, answerable in place. */
export interface PendingCallItem {
  /** The call as the server lists it: its conversation, agent, when it was asked. */
  call: PendingCall;
  /** The same block the transcript shows for it: a question set's, or an approval's. */
  block: ElicitationBlock | ApprovalBlock;
}

/** Where the inbox stands: opening the feed, following it live, or opening it again after a cut. */
export type PendingCallsStatus = "connecting" | "live" | "reconnecting";

/** What {@link PendingCallsStore} holds: the waiting calls, oldest first, and the feed's status. */
export interface PendingCallsSnapshot {
  /** The waiting calls, in the order they started waiting. */
  calls: readonly PendingCallItem[];
  /** The feed's status. */
  status: PendingCallsStatus;
}

/** What the inbox's blocks are made with. */
export interface PendingCallsStoreOptions {
  /** Sentences in the app's language, laid over the English defaults. */
  messages?: PrepickMessagesInput;
  /** Where a question set's draft is kept; the same slots the transcript uses, so a draft follows the set. */
  drafts?: DraftStorage;
}

/**
 * The actor's waiting calls as a store, fed by the inbox feed's events (`apply`). Each call gets
 * one block for its life, answered through `client`; a call leaves the list the moment it is
 * settled, here (the server's 200, or a 409 saying someone else settled it) or anywhere else
 * (the feed's `settled`).
 */
export class PendingCallsStore {
  private readonly store = createStore<PendingCallsSnapshot>({ calls: [], status: "connecting" });
  // A fresh connection's events replace the list; they are gathered here until `synced`.
  private replacing: Map<string, PendingCallItem> | undefined;

  private readonly client: ToolCallActions;
  private readonly options: PendingCallsStoreOptions;

  /** A store whose blocks act through `client`. */
  constructor(client: ToolCallActions, options: PendingCallsStoreOptions = {}) {
    // Fields, not parameter properties: apps compiled with `erasableSyntaxOnly` refuse those.
    this.client = client;
    this.options = options;
  }

  /** The current snapshot; a new object whenever something changed. */
  getSnapshot = (): PendingCallsSnapshot => this.store.getSnapshot();

  /** Calls `listener` on every change; returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  /** Applies one event of the feed; `fresh` for the events of a connection opened afresh. */
  apply(event: InboxEvent, fresh: boolean): void {
    if (fresh && this.replacing === undefined && event.kind !== "synced") {
      this.replacing = new Map();
    }
    // What follows up to `synced` replaces the list, even when nothing waits.
    if (event.kind === "reset") return;
    if (event.kind === "waiting") {
      const target = fresh && this.replacing ? this.replacing : undefined;
      const existing = this.find(event.call.id);
      const item = existing ?? { call: event.call, block: this.block(event.call) };
      if (target) target.set(item.call.id, item);
      else if (!existing) this.set({ calls: [...this.getSnapshot().calls, item] });
      return;
    }
    if (event.kind === "settled") {
      this.replacing?.delete(event.id);
      this.remove(event.id);
      return;
    }
    const calls = this.replacing ? [...this.replacing.values()] : this.getSnapshot().calls;
    this.replacing = undefined;
    this.set({ calls, status: "live" });
  }

  /** The feed was cut: the list stays as it is while it is opened again. */
  disconnected(): void {
    if (this.getSnapshot().status !== "connecting") this.set({ status: "reconnecting" });
  }

  private find(id: string): PendingCallItem | undefined {
    return this.getSnapshot().calls.find((item) => item.call.id === id) ?? this.replacing?.get(id);
  }

  private remove(id: string): void {
    const { calls } = this.getSnapshot();
    if (!calls.some((item) => item.call.id === id)) return;
    this.set({ calls: calls.filter((item) => item.call.id !== id) });
  }

  private set(change: Partial<PendingCallsSnapshot>): void {
    this.store.set((snapshot) => ({ ...snapshot, ...change }));
  }

  private block(call: PendingCall): ElicitationBlock | ApprovalBlock {
    const { posted } = call;
    // A 200, or a 409 saying someone else settled it: the call waits no more.
    const settle = settleThrough(this.client, call.id, () => this.remove(call.id));
    if (posted.kind === "elicitation") {
      return createElicitation({
        id: call.id,
        messageId: call.messageId,
        request: posted.request,
        expiresAt: posted.expiresAt,
        messages: this.options.messages,
        drafts: this.options.drafts,
        onAnswer: settle.onAnswer,
        onSkip: settle.onSkip,
      });
    }
    return createApprovalBlock(
      {
        id: call.id,
        messageId: call.messageId,
        toolName: posted.toolName,
        input: posted.input,
        ...(posted.description !== undefined ? { description: posted.description } : {}),
        ...(posted.questions ? { questions: posted.questions } : {}),
        ...(this.options.messages ? { messages: this.options.messages } : {}),
        ...(this.options.drafts ? { drafts: this.options.drafts } : {}),
        expiresAt: posted.expiresAt,
      },
      settle.sendDecision,
    );
  }
}
