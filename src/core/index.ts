// The `prepick/core` entry (and the `prepick-core` registry item's barrel): the question model an
// app or a server builds on. The value checks' own helpers (formats, URL schemes, patterns' single
// matches) stay inside; `tests/install/package-exports.test.ts` holds the list.
export {
  type AnswerIssue,
  type ParsedAnswers,
  parseAnswers,
  type ResolvedAnswers,
  resolveAnswers,
  validateAnswers,
} from "./answers";
export {
  type ApprovalEdits,
  answersOfInput,
  applyEdits,
  EDITED_HEADING,
  editedQuestions,
  readApprovalEdits,
  summarizeEdits,
} from "./approval-edits";
export {
  ASK_TOOL_NAME,
  describeAskIssues,
  MAX_ASK_QUESTIONS,
  type ParsedAsk,
  parseAskInput,
} from "./ask-tool";
export {
  ASK_TOOL_DESCRIPTION,
  type AskToolInput,
  AskToolInputSchema,
  askToolJsonSchema,
} from "./ask-tool-schema";
export {
  type CheckQuestionsOptions,
  checkQuestions,
  type DefinitionIssue,
  RESERVED_QUESTION_IDS,
  withHotkeys,
} from "./check-questions";
export { coerceAnswer, formatDecimal } from "./coerce-answer";
export type * from "./frames";
export type * from "./inbox";
export {
  type CheckedIntake,
  checkIntake,
  type Intake,
  type IntakeConfig,
  IntakeSchema,
  intakeRequest,
} from "./intake";
export {
  ANSWERED_HEADING,
  SKIPPED_HEADING,
  settleAnswers,
  settleRecorded,
  settleSkipped,
  summarize,
} from "./outcome";
export { loadPatternEngine, patternEngineReady } from "./pattern";
export {
  type Answers,
  type ElicitationOutcome,
  ElicitationOutcomeSchema,
  type ElicitationRequest,
  ElicitationRequestSchema,
  type ElicitationSource,
  INPUT_TYPES,
  InputSchema,
  type InputType,
  type Option,
  OptionSchema,
  picksFromOptions,
  type Question,
  type QuestionInput,
  QuestionSchema,
} from "./question";
export { isRequired, type ValueProblem, valueProblem } from "./value-problem";
