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
  editedQuestions,
  inputValueOf,
  readApprovalEdits,
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
export { DEFAULT_URL_SCHEMES, isEmail, isUri, URL_SCHEMES, type UrlScheme, uriScheme } from "./formats";
export type * from "./frames";
export type * from "./inbox";
export {
  type CheckedIntake,
  checkIntake,
  type Intake,
  type IntakeConfig,
  IntakeSchema,
  IntakeWhenSchema,
  intakeRequest,
} from "./intake";
export {
  ANSWERED_HEADING,
  describeValue,
  SKIPPED_HEADING,
  settleAnswers,
  settleRecorded,
  settleSkipped,
  summarize,
  summaryLine,
} from "./outcome";
export { loadPatternEngine, matchesPattern, patternEngineReady, patternProblem } from "./pattern";
export {
  type Answers,
  BoundSchema,
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
  SKIP_HOTKEY,
} from "./question";
export {
  allowedSchemes,
  countProblem,
  isIsoDate,
  isIsoDateTime,
  isOnStep,
  isRequired,
  isUrl,
  type Rule,
  type ValueProblem,
  valueProblem,
} from "./value-problem";
