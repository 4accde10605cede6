import type { AgentDefinition, ApprovalPolicy, ToolDefinition } from "./types";

/** The tool's own verdict from `needsApproval`: a boolean, or its function applied to the input. */
export function toolNeedsApproval(tool: ToolDefinition, input: unknown): boolean {
  const rule = tool.needsApproval;
  return typeof rule === "function" ? rule(input) === true : rule === true;
}

/**
 * Whether a person must approve this call before it runs: the module's policy when it has one
 * (told the tool's own verdict, which it may keep or override), otherwise the tool's own verdict.
 */
export async function requiresApproval(call: {
  /** The agent whose model made the call. */
  agent: AgentDefinition;
  /** The registered tool called. */
  tool: ToolDefinition;
  /** The parsed input. */
  input: unknown;
  /** The actor who owns the thread. */
  actorId: string;
  /** The module's policy, if any. */
  policy?: ApprovalPolicy;
}): Promise<boolean> {
  const own = toolNeedsApproval(call.tool, call.input);
  if (!call.policy) return own;
  const verdict = await call.policy({
    agent: call.agent.name,
    toolName: call.tool.name,
    input: call.input,
    actorId: call.actorId,
    needsApproval: own,
  });
  return verdict === true;
}
