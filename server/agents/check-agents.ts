import { ASK_TOOL_NAME, checkIntake, type Intake } from "prepick/core";
import { agentOf } from "./define-agent";
import { type EditableField, editableFields } from "./editable-fields";
import type { AgentConfig, AgentDefinition, AgentModuleOptions, ToolDefinition } from "./types";

/** Every problem found in a set of agent definitions, one sentence each. */
export class AgentDefinitionError extends Error {
  /** The problems, e.g. `Agent "booking": intake questions["seats"].defaults[0] "12" must be at most 9`. */
  readonly problems: string[];

  constructor(problems: string[]) {
    super(problems.join("\n"));
    this.name = "AgentDefinitionError";
    this.problems = problems;
  }
}

const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** The longest time limit a timer can hold (about 24.8 days); a longer one would fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/** Whether a time limit is a whole number of ms a timer can hold, at least 1. */
export function isTimeoutMs(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_TIMEOUT_MS;
}

function checkTimeout(value: unknown, name: string, report: (text: string) => void) {
  if (value !== undefined && !isTimeoutMs(value)) {
    report(
      `${name} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, not ${JSON.stringify(value)}`,
    );
  }
}
// The name rule the chat-completions APIs enforce on function names.
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** What the module says that bears on checking each agent. */
type ModuleSettings = Pick<AgentModuleOptions, "ask" | "approvalPolicy">;

/** The editable fields of a tool that declares `editable`, or undefined after reporting why not. */
function checkEditable(
  tool: ToolDefinition,
  at: string,
  module: ModuleSettings,
  report: (text: string) => void,
): readonly EditableField[] | undefined {
  const { editable } = tool;
  if (editable === undefined || editable === false) return undefined;
  if (editable !== true && !Array.isArray(editable)) {
    report(`${at} editable must be true or a list of the input's field names`);
    return undefined;
  }
  if (!tool.needsApproval && !module.approvalPolicy) {
    report(`${at} is editable but never needs approval, so nobody could edit it: set needsApproval`);
  }
  const checked = editableFields(tool);
  if ("problems" in checked) {
    for (const problem of checked.problems) report(`${at} ${problem}`);
    return undefined;
  }
  return checked.fields;
}

function checkTools(
  tools: readonly ToolDefinition[],
  module: ModuleSettings,
  report: (text: string) => void,
): Map<string, readonly EditableField[]> {
  const editing = new Map<string, readonly EditableField[]>();
  const seen = new Set<string>();
  tools.forEach((tool, index) => {
    const at = typeof tool?.name === "string" && tool.name !== "" ? `tool "${tool.name}"` : `tools[${index}]`;
    if (typeof tool?.name !== "string" || !TOOL_NAME.test(tool.name)) {
      report(`${at} name must be 1 to 64 letters, digits, "_" or "-"`);
      return;
    }
    if (tool.name === ASK_TOOL_NAME) {
      report(`${at} is reserved: the loop offers ask itself (set ask: true instead)`);
    }
    if (seen.has(tool.name)) report(`${at} is declared more than once`);
    seen.add(tool.name);
    if (typeof tool.execute !== "function") report(`${at} must have an execute function`);
    checkTimeout(tool.timeoutMs, `${at} timeoutMs`, report);
    if (typeof tool.inputSchema?.safeParse !== "function") {
      report(`${at} inputSchema must be a zod schema`);
      return;
    }
    const fields = checkEditable(tool, at, module, report);
    if (fields) editing.set(tool.name, fields);
  });
  return editing;
}

function checkOne(
  entry: AgentModuleOptions["agents"][number],
  index: number,
  module: ModuleSettings,
  report: (text: string) => void,
): AgentDefinition | undefined {
  let config: AgentConfig;
  try {
    config = typeof entry === "function" ? agentOf(entry) : entry;
  } catch (error) {
    report(`agents[${index}]: ${(error as Error).message}`);
    return undefined;
  }
  const named = typeof config?.name === "string" && config.name !== "";
  const at = named ? `Agent "${config.name}"` : `agents[${index}]`;
  const problem = (text: string) => report(`${at}: ${text}`);
  if (!named || !AGENT_NAME.test(config.name)) {
    problem(`name must start with a letter or digit and hold only letters, digits, ".", "_" or "-"`);
  }
  if (typeof config?.systemPrompt !== "string") problem("systemPrompt must be a string");
  const tools = config?.tools ?? [];
  let editing = new Map<string, readonly EditableField[]>();
  if (!Array.isArray(tools)) problem("tools must be an array");
  else editing = checkTools(tools, module, problem);
  const timeouts = config?.timeouts;
  if (timeouts !== undefined && (typeof timeouts !== "object" || timeouts === null)) {
    problem("timeouts must be an object such as { modelMs: 120000, toolMs: 60000 }");
  } else if (timeouts) {
    checkTimeout(timeouts.modelMs, "timeouts.modelMs", problem);
    checkTimeout(timeouts.toolMs, "timeouts.toolMs", problem);
  }
  const expiresAfterMs = config?.expiresAfterMs;
  if (expiresAfterMs !== undefined && !isDeadlineMs(expiresAfterMs)) {
    problem(
      `expiresAfterMs must be a whole number of milliseconds from 1000 to ${MAX_DEADLINE_MS} (a year), not ${JSON.stringify(expiresAfterMs)}`,
    );
  }
  let intake: Intake | undefined;
  if (config?.intake !== undefined) {
    const checked = checkIntake(config.intake);
    if (checked.success) intake = checked.intake;
    else for (const issue of checked.issues) problem(`intake ${issue.message}`);
  }
  return {
    name: config?.name,
    systemPrompt: config?.systemPrompt,
    tools: Array.isArray(tools) ? [...tools] : [],
    editing,
    ...(intake ? { intake } : {}),
    ask: config?.ask ?? module.ask ?? false,
    ...(config?.model !== undefined ? { model: config.model } : {}),
    ...(timeouts ? { timeouts: { ...timeouts } } : {}),
    ...(expiresAfterMs !== undefined ? { expiresAfterMs } : {}),
  };
}

/** The longest deadline a run may have: a year. */
export const MAX_DEADLINE_MS = 365 * 86_400_000;

/** Whether `value` is a deadline a run may have, in ms: a whole second to a year. */
export function isDeadlineMs(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1_000 && (value as number) <= MAX_DEADLINE_MS;
}

/**
 * Checks every agent a server hosts: names unique and well-formed, tools unique and never `ask`,
 * every intake passing `checkIntake`, and every editable tool's fields expressible as questions.
 * Throws one {@link AgentDefinitionError} listing every problem; otherwise returns the agents
 * ready for the loop, intakes parsed, editable fields read and `ask` resolved (the agent's own,
 * else the module's, else false).
 */
export function checkAgents(
  agents: AgentModuleOptions["agents"],
  module: ModuleSettings = {},
): AgentDefinition[] {
  const problems: string[] = [];
  const report = (text: string) => problems.push(text);
  const names = new Set<string>();
  const definitions = agents.map((entry, index) => {
    const definition = checkOne(entry, index, module, report);
    if (definition && typeof definition.name === "string") {
      if (names.has(definition.name)) report(`Agent "${definition.name}": name is used by another agent`);
      names.add(definition.name);
    }
    return definition;
  });
  if (problems.length > 0) throw new AgentDefinitionError(problems);
  return definitions.filter((definition): definition is AgentDefinition => definition !== undefined);
}
