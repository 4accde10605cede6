// The `prepick/hooks` entry: the hooks, the blocks and stores they hand out, and the messages.
// The state machines, the format helpers and the stores' own classes stay inside; each export here
// is a decision, and `tests/install/package-exports.test.ts` holds the list.

export { createElicitation } from "./create-elicitation";
export type { DraftStorage } from "./draft-storage";
export type { PendingCallItem } from "./pending-calls-store";
export {
  englishMessages,
  type PrepickMessages,
  type PrepickMessagesInput,
} from "./prepick-messages";
export { PrepickMessagesProvider, usePrepickMessages } from "./prepick-messages-context";
export type {
  ApprovalBlock,
  ApprovalState,
  ElicitationBlock,
  ElicitationQuestionState,
  ElicitationSnapshot,
  ElicitationState,
  TranscriptBlock,
  TranscriptMessage,
} from "./transcript-types";
export {
  type AgentConversation,
  type UseAgentConversationOptions,
  useAgentConversation,
} from "./use-agent-conversation";
export { type ChatTranscript, useApproval, useChatTranscript } from "./use-chat-transcript";
export { useConnection } from "./use-connection";
export { type Deadline, readDeadline, useDeadline } from "./use-deadline";
export {
  useElicitation,
  useElicitationQuestion,
  useElicitationSelector,
  useElicitationSnapshot,
} from "./use-elicitation";
export { type PendingCallState, type UsePendingCallOptions, usePendingCall } from "./use-pending-call";
export { usePendingCalls } from "./use-pending-calls";
export { useThreads } from "./use-threads";
