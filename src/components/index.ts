// The `prepick/components` entry: the components and their parts, as an app composes them. How
// keys map to actions and choices are listed stays inside; `tests/install/package-exports.test.ts`
// holds the list.
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
export {
  type ElicitationContextValue,
  type ElicitationLayout,
  type ElicitationQuestionContextValue,
  useElicitationContext,
  useElicitationQuestionContext,
} from "./elicitation-context";
export { ElicitationFreeText, ElicitationInput } from "./elicitation-input";
export {
  ElicitationKey,
  ElicitationOption,
  ElicitationOptions,
  ElicitationPrePicked,
} from "./elicitation-option";
export { ElicitationDeadline, ElicitationPreamble, ElicitationProgress } from "./elicitation-progress";
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
