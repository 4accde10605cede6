export { answerTransition, INITIAL_ANSWER_STATE } from "./answer-machine";
export { approvalTransition, INITIAL_APPROVAL_STATE } from "./approval-machine";
export { type ApprovalBlockInit, createApprovalBlock, type SendDecision } from "./approval-store";
export { type CreateElicitationOptions, createElicitation } from "./create-elicitation";
export {
  createElicitationStore,
  describeOutcome,
  type ElicitationStoreOptions,
  readOutcome,
} from "./elicitation-store";
export { count, formatAnswer, formatDate, formatNumber } from "./format-answer";
export { type CharacterCount, characterCount, issueSentence } from "./issue-sentence";
export {
  type Count,
  type DateRange,
  englishMessages,
  type NumberRange,
  type PrepickMessages,
  type PrepickMessagesInput,
  resolveMessages,
} from "./prepick-messages";
export { INITIAL_SKIP_STATE, skipTransition } from "./skip-machine";
export { isElicitationPart, TranscriptBuilder, type TranscriptChat } from "./transcript-builder";
export type * from "./transcript-types";
export {
  type ChatTranscript,
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
