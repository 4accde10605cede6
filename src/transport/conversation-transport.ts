import type { ChatTransport, UIMessage } from "ai";
import type { ToolCallActions } from "./tool-call-client";

/**
 * Where a chat's latest run stands: running, parked on a person (a question set or an approval
 * waits), or ended. One vocabulary for both transports: an AG-UI run that ends with interrupts is
 * `parked` too.
 */
export type RunStatus = "running" | "parked" | "completed" | "failed" | "cancelled";

/**
 * An AI SDK `ChatTransport` that also carries a conversation's life around the stream: reading a
 * stored thread (a page at a time), where the chat's run stands, the tool-call actions a
 * transcript settles its question sets and approvals with, and cancelling the run.
 * `AgentChatTransport` (the Prepick server) and `AgUiChatTransport` (any AG-UI agent) both
 * implement it, and `useAgentConversation` runs over either. The chat id is the thread id.
 */
export interface ConversationTransport extends ChatTransport<UIMessage> {
  /** Answer, skip, approve and reject, each answering with the settled output or a typed failure. */
  readonly client: ToolCallActions;
  /**
   * A stored thread's latest messages (empty when there is none), remembering its latest run so
   * `reconnectToStream` can follow it. Pass the result to the chat's `setMessages`.
   */
  loadThread(chatId: string): Promise<UIMessage[]>;
  /** Whether the thread holds messages older than those loaded so far. */
  hasOlder(chatId: string): boolean;
  /** The page of messages before the oldest loaded one, in order; empty when none remain. */
  loadOlder(chatId: string): Promise<UIMessage[]>;
  /** Where the chat's latest run stands, as far as the transport has seen; undefined before any. */
  runStatus(chatId: string): RunStatus | undefined;
  /**
   * Ends the chat's run where it runs, not only the stream the page reads (the AI SDK's `stop`
   * ends that). Resolves once asked; a run that already ended is left as it is.
   */
  cancel(chatId: string): Promise<void>;
}
