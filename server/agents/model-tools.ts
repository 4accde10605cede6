import { jsonSchema, type ToolSet, tool } from "ai";
import { ASK_TOOL_DESCRIPTION, ASK_TOOL_NAME, askToolJsonSchema } from "prepick/core";
import { SCRIPTED_OPTIONS_KEY } from "../model/scripted-rules";
import type { AgentDefinition, ToolDefinition } from "./types";

/** The `ask` tool as the model sees it: the schema from core, no handler (a person settles it). */
export function askModelTool() {
  return tool({ description: ASK_TOOL_DESCRIPTION, inputSchema: jsonSchema(askToolJsonSchema as never) });
}

/** One registered tool as the model sees it: no handler, since the loop runs it itself. */
export function modelToolOf(definition: ToolDefinition) {
  return tool({
    description: definition.description,
    inputSchema: definition.inputSchema,
    ...(definition.keywords?.length
      ? { providerOptions: { [SCRIPTED_OPTIONS_KEY]: { keywords: definition.keywords } } }
      : {}),
  });
}

/**
 * The tools an agent's model is offered, for `streamText({ tools })`: its registered tools without
 * handlers, and `ask` appended when the agent's resolved `ask` is on. The loop executes, approves
 * and settles every call itself, so no tool here has an `execute`.
 */
export function modelToolsOf(agent: Pick<AgentDefinition, "tools" | "ask">): ToolSet {
  const tools: ToolSet = {};
  for (const definition of agent.tools) tools[definition.name] = modelToolOf(definition);
  if (agent.ask) tools[ASK_TOOL_NAME] = askModelTool();
  return tools;
}
