import { checkAgents } from "./check-agents";
import type { AgentModuleOptions } from "./types";

/**
 * The agent module's configuration in the form the specification writes it:
 * `AgentModule.forRoot({ agents, ask: true })`. `forRoot` checks the agents at once (a bad intake
 * default throws an `AgentDefinitionError` naming the agent, the question and the rule) and
 * returns the options, which `createServer` and `createApp` take as they are:
 * `createServer({ ...AgentModule.forRoot({ agents: [refactorer], ask: true }), port: 3000 })`.
 * What it sets (`ask`, the approval policy, the model) applies to every agent that does not say
 * otherwise, the same in every process that loads the module.
 */
export const AgentModule = {
  forRoot<Options extends AgentModuleOptions>(options: Options): Options {
    checkAgents(options.agents, options);
    return options;
  },
};
