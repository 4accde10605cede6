export { AgentModule } from "./agent-module";
export { AgentDefinitionError, checkAgents } from "./check-agents";
export {
  AGENT_DEFINITION,
  Agent,
  agentOf,
  defineAgent,
  defineTool,
  Injectable,
  isAgentClass,
} from "./define-agent";
export {
  booking,
  DEMO_AGENTS,
  demoToolCalls,
  operator,
  planner,
  purgeCache,
  readStatus,
  refactorer,
} from "./demo-agents";
export { askModelTool, modelToolOf, modelToolsOf } from "./model-tools";
export { requiresApproval, toolNeedsApproval } from "./requires-approval";
export type {
  AgentClass,
  AgentConfig,
  AgentDefinition,
  AgentModuleOptions,
  ApprovalCall,
  ApprovalPolicy,
  ToolContext,
  ToolDefinition,
} from "./types";
