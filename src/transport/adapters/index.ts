export {
  CLAUDE_ASK_USER_QUESTION,
  CLAUDE_DISMISSED_MESSAGE,
  type ClaudeAskUserQuestionInput,
  type ClaudePermissionResult,
  type ClaudeQuestion,
  type ClaudeQuestionOption,
  claudeAnswersToOutcome,
  claudeQuestionId,
  claudeQuestionsToRequest,
  outcomeToClaudePermissionResult,
  type ParsedClaudeQuestions,
} from "./claude-ask-user-question";
export {
  type McpElicitationFormParams,
  type McpElicitationParams,
  type McpElicitationResponse,
  type McpElicitationResult,
  type McpElicitationUrlParams,
  type McpFieldValue,
  type McpPrimitiveSchema,
  type McpTitledChoice,
  mcpElicitationToRequest,
  mcpResultToOutcome,
  outcomeToMcpResult,
  type ParsedMcpElicitation,
} from "./mcp-elicitation";
export { mcpPropertyName, mcpQuestionId } from "./mcp-names";
export {
  type OpenCodeAnswer,
  type OpenCodeOption,
  type OpenCodeQuestionInfo,
  type OpenCodeQuestionRequest,
  openCodeQuestionId,
  openCodeQuestionToRequest,
  openCodeReplyToOutcome,
  outcomeToOpenCodeAnswer,
  type ParsedOpenCodeQuestion,
} from "./opencode-question";
