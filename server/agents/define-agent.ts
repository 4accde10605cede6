import type { AgentClass, AgentConfig, ToolDefinition } from "./types";

/** The static, symbol-keyed property where `@Agent` records a class's agent. */
export const AGENT_DEFINITION: unique symbol = Symbol.for("prepick.agent");

/** Declares an agent. Returns the config as given, typed; {@link checkAgents} validates it. */
export function defineAgent(config: AgentConfig): AgentConfig {
  return config;
}

/** Declares a tool, inferring its input and output types from the schema and the handler. */
// biome-ignore lint/suspicious/noExplicitAny: mirrors ToolDefinition's defaults
export function defineTool<Input = any, Output = unknown>(
  tool: ToolDefinition<Input, Output>,
): ToolDefinition<Input, Output> {
  return tool;
}

/**
 * Class decorator (standard TC39 decorators, as TypeScript 5+ and esbuild emit them): records
 * the agent on the class, where {@link agentOf} reads it. The class itself is left unchanged.
 */
export function Agent(config: AgentConfig) {
  return <Class extends AgentClass>(target: Class, context: ClassDecoratorContext<Class>): void => {
    if (context.kind !== "class") {
      throw new Error(`@Agent({ name: "${config.name}" }) decorates a class, not a ${context.kind}`);
    }
    Object.defineProperty(target, AGENT_DEFINITION, { value: defineAgent(config), enumerable: false });
  };
}

/**
 * Marks a class as injectable. A no-op here, so that agent classes written for a dependency
 * injection container compile and run unchanged.
 */
export function Injectable() {
  return <Class extends AgentClass>(_target: Class, _context: ClassDecoratorContext<Class>): void => {};
}

/** Whether a value is a class decorated with `@Agent`. */
export function isAgentClass(value: unknown): value is AgentClass {
  return typeof value === "function" && Object.hasOwn(value, AGENT_DEFINITION);
}

/** The agent a class was decorated with; throws, naming the class, when it has none. */
export function agentOf(target: AgentClass): AgentConfig {
  // Own property only: a subclass of an agent class is not that agent.
  if (!Object.hasOwn(target, AGENT_DEFINITION)) {
    throw new Error(`Class "${target.name || "(anonymous)"}" has no @Agent({ … }) decorator`);
  }
  return (target as unknown as Record<typeof AGENT_DEFINITION, AgentConfig>)[AGENT_DEFINITION];
}
