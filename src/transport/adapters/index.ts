export {
  type McpElicitationParams,
  type McpElicitationResult,
  type McpFieldValue,
  type McpPrimitiveSchema,
  type McpTitledChoice,
  mcpElicitationToRequest,
  mcpResultToOutcome,
  outcomeToMcpResult,
  type ParsedMcpElicitation,
} from "./mcp-elicitation";
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
