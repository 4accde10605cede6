import type { InboxEvent, PendingCall } from "@/lib/prepick/core/inbox";
import type { ToolCallClient, ToolCallResponse } from "@/lib/prepick/transport/tool-call-client";
import { ToolCallError } from "@/lib/prepick/transport/tool-call-error";
import { createApprovalBlock } from "./approval-store";
import { createElicitation } from "./create-elicitation";
import { readOutcome } from "./describe-outcome";
import type { DraftStorage } from "./draft-storage";
import type { PrepickMessagesInput } from "./prepick-messages";
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
  private snapshot: PendingCallsSnapshot = { calls: [], status: "connecting" };
  private readonly listeners = new Set<() => void>();
  // A fresh connection's events replace the list; they are gathered here until `synced`.
  private replacing: Map<string, PendingCallItem> | undefined;

  private readonly client: Pick<ToolCallClient, "answer" | "skip" | "approve" | "reject">;
  private readonly options: PendingCallsStoreOptions;

  /** A store whose blocks act through `client`. */
  constructor(
    client: Pick<ToolCallClient, "answer" | "skip" | "approve" | "reject">,
    options: PendingCallsStoreOptions = {},
  ) {
    // Fields, not parameter properties: apps compiled with `erasableSyntaxOnly` refuse those.
    this.client = client;
    this.options = options;
  }

  /** The current snapshot; a new object whenever something changed. */
  getSnapshot = (): PendingCallsSnapshot => this.snapshot;

  /** Calls `listener` on every change; returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

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
      else if (!existing) this.set({ calls: [...this.snapshot.calls, item] });
      return;
    }
    if (event.kind === "settled") {
      this.replacing?.delete(event.id);
      this.remove(event.id);
      return;
    }
    const calls = this.replacing ? [...this.replacing.values()] : this.snapshot.calls;
    this.replacing = undefined;
    this.set({ calls, status: "live" });
  }

  /** The feed was cut: the list stays as it is while it is opened again. */
  disconnected(): void {
    if (this.snapshot.status !== "connecting") this.set({ status: "reconnecting" });
  }

  private find(id: string): PendingCallItem | undefined {
    return this.snapshot.calls.find((item) => item.call.id === id) ?? this.replacing?.get(id);
  }

  private remove(id: string): void {
    if (!this.snapshot.calls.some((item) => item.call.id === id)) return;
    this.set({ calls: this.snapshot.calls.filter((item) => item.call.id !== id) });
  }

  private set(change: Partial<PendingCallsSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of [...this.listeners]) listener();
  }

  // Sends an action; a 200 or a 409 (settled by someone else) means the call waits no more.
  private async act(id: string, send: () => Promise<ToolCallResponse>) {
    const response = await send();
    if (response.ok || response.failure.kind === "conflict") this.remove(id);
    if (!response.ok) throw new ToolCallError(response.failure);
    return response.result;
  }

  private block(call: PendingCall): ElicitationBlock | ApprovalBlock {
    const { posted } = call;
    if (posted.kind === "elicitation") {
      const settle = async (send: () => Promise<ToolCallResponse>) => {
        const outcome = readOutcome((await this.act(call.id, send)).output);
        if (!outcome) throw new Error(`The server settled ${call.id} without an outcome.`);
        return outcome;
      };
      return createElicitation({
        id: call.id,
        messageId: call.messageId,
        request: posted.request,
        messages: this.options.messages,
        drafts: this.options.drafts,
        onAnswer: (answers) => settle(() => this.client.answer(call.id, answers)),
        onSkip: () => settle(() => this.client.skip(call.id)),
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
      },
      async (approved, reason, answers) => {
        const settled = await this.act(call.id, () =>
          approved ? this.client.approve(call.id, answers) : this.client.reject(call.id, reason),
        );
        return settled.output;
      },
    );
  }
}
