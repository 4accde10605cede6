export { approvalTransition, INITIAL_APPROVAL_STATE } from "./approval-machine";
export { type ApprovalBlockInit, createApprovalBlock, type SendDecision } from "./approval-store";
export { type CreateElicitationOptions, createElicitation } from "./create-elicitation";
export { type ApprovedField, describeEdits } from "./describe-edits";
export { describeOutcome, readOutcome } from "./describe-outcome";
export {
  type DraftSlot,
  type DraftStorage,
  draftKey,
  draftSlot,
  sessionDraftStorage,
} from "./draft-storage";
export {
  answerView,
  type ElicitationStart,
  elicitationTransition,
  hasChanges,
  initialElicitationState,
  skipView,
} from "./elicitation-machine";
export { createElicitationStore, type ElicitationStoreOptions } from "./elicitation-store";
export { count, formatAnswer, formatDate, formatNumber } from "./format-answer";
export { type CharacterCount, characterCount, issueSentence } from "./issue-sentence";
export {
  type PendingCallItem,
  type PendingCallsSnapshot,
  type PendingCallsStatus,
  PendingCallsStore,
  type PendingCallsStoreOptions,
} from "./pending-calls-store";
export {
  type Count,
  type DateRange,
  englishMessages,
  type NumberRange,
  type PrepickMessages,
  type PrepickMessagesInput,
  resolveMessages,
} from "./prepick-messages";
export { PrepickMessagesProvider, usePrepickMessages } from "./prepick-messages-context";
export { type ThreadListSnapshot, ThreadListStore } from "./thread-list-store";
export {
  isElicitationPart,
  TranscriptBuilder,
  type TranscriptBuilderOptions,
  type TranscriptChat,
} from "./transcript-builder";
export type * from "./transcript-types";
export {
  type ChatTranscript,
  type PagedThreadTransport,
  type UseChatTranscriptOptions,
  useApproval,
  useChatTranscript,
} from "./use-chat-transcript";
export {
  useElicitation,
  useElicitationQuestion,
  useElicitationSelector,
  useElicitationSnapshot,
} from "./use-elicitation";
export { type PendingCalls, type UsePendingCallsOptions, usePendingCalls } from "./use-pending-calls";
export { type Threads, type UseThreadsOptions, useThreads } from "./use-threads";
