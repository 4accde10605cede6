export { AgentInbox } from "./agent-inbox";
export { ChatApproval, type ChatApprovalStatus } from "./chat-approval";
export { ChatComposer, type ChatComposerState } from "./chat-composer";
export { ChatElicitation } from "./chat-elicitation";
export { type ChatBlockRenderer, ChatMessage, ChatMessageReasoning, ChatMessageText } from "./chat-message";
export { ChatThreadList } from "./chat-thread-list";
export { ChatToolCall, ChatToolCallSection, ChatToolCallStatus } from "./chat-tool-call";
export { ChatTranscript } from "./chat-transcript";
export {
  ElicitationActions,
  ElicitationHints,
  ElicitationSkipConfirm,
  ElicitationStatus,
} from "./elicitation-actions";
export { elicitationChoices } from "./elicitation-choices";
export {
  type ElicitationContextValue,
  type ElicitationLayout,
  type ElicitationQuestionContextValue,
  useElicitationContext,
  useElicitationQuestionContext,
} from "./elicitation-context";
export { ElicitationFreeText, ElicitationInput } from "./elicitation-input";
export {
  type ElicitationKeyAction,
  type ElicitationKeyContext,
  type ElicitationKeyEvent,
  type ElicitationKeyTarget,
  elicitationKeyTarget,
  resolveElicitationKey,
} from "./elicitation-keys";
export {
  ElicitationKey,
  ElicitationOption,
  ElicitationOptions,
  ElicitationPrePicked,
} from "./elicitation-option";
export { ElicitationPreamble, ElicitationProgress } from "./elicitation-progress";
export {
  ElicitationCharacterCount,
  ElicitationControl,
  ElicitationDescription,
  ElicitationError,
  ElicitationLegend,
  ElicitationQuestion,
} from "./elicitation-question";
export { ElicitationRoot } from "./elicitation-root";
export { ElicitationSettled } from "./elicitation-settled";
export { InboxCount } from "./inbox-count";
