// The `prepick/transport` entry: the transports, their client and its failures. How frames fold,
// hydrate and are read stays inside; the adapters for other protocols are `prepick/adapters`.
// Each export here is a decision, and `tests/install/package-exports.test.ts` holds the list.
export { AgentChatTransport, type AgentChatTransportOptions } from "./agent-chat-transport";
export type { ConversationTransport, RunStatus } from "./conversation-transport";
export { type RunFailure, readRunFailure } from "./run-failure";
export {
  type ToolCallActions,
  ToolCallClient,
  type ToolCallClientOptions,
  type ToolCallResponse,
  type ToolCallResult,
} from "./tool-call-client";
export { ToolCallError, type ToolCallFailure } from "./tool-call-error";
