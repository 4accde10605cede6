export * from "./adapters";
export {
  AgentChatTransport,
  type AgentChatTransportOptions,
  type RunRecord,
} from "./agent-chat-transport";
export {
  type FoldResult,
  type FoldState,
  foldFrame,
  foldFrames,
  INITIAL_FOLD_STATE,
  type RunStatus,
} from "./fold-frames";
export { hydrateRun, hydrateThread } from "./hydrate-thread";
export { followInbox, type InboxFeedHandlers } from "./inbox-feed";
export { endsStream, readFrames } from "./read-frames";
export { type RunFailure, readRunFailure } from "./run-failure";
export { followSharedInbox } from "./shared-inbox-feed";
export {
  type ApprovalsPage,
  type PageRequest,
  readFailure,
  type ThreadAssistantMessage,
  type ThreadResponse,
  type ThreadsPage,
  type ThreadUserMessage,
  type ToolCallActions,
  ToolCallClient,
  type ToolCallClientOptions,
  type ToolCallResponse,
  type ToolCallResult,
} from "./tool-call-client";
export { ToolCallError, type ToolCallFailure, toToolCallFailure } from "./tool-call-error";
