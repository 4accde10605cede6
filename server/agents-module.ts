import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AgentClass, AgentConfig } from "./agents/types";
import type { Authenticate } from "./http/actor";

type Hosted = AgentConfig | AgentClass;

function isHosted(value: unknown): value is Hosted {
  return typeof value === "function" || (typeof value === "object" && value !== null && "name" in value);
}

/** What a module named by `PREPICK_AGENTS_MODULE` gives `npm start`. */
export interface AgentsModule {
  /** The agents to host. */
  agents: Hosted[];
  /** The deployment's own authentication, when the module exports `authenticate`. */
  authenticate?: Authenticate;
}

/**
 * The agents a module exports for `npm start` (`PREPICK_AGENTS_MODULE`): its `agents` export, or
 * its default export, a non-empty array of agents (`defineAgent` configs or `@Agent` classes),
 * and its `authenticate` export if it has one: `(request) => actorId | undefined`, which then
 * decides every request's actor instead of `x-actor-id` and the cookie.
 * A path is resolved against the working directory; TypeScript loads as the server does.
 */
export async function loadAgentsModule(path: string): Promise<AgentsModule> {
  const url = pathToFileURL(resolve(path)).href;
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`PREPICK_AGENTS_MODULE ${JSON.stringify(path)} could not be loaded: ${reason}`);
  }
  const agents = loaded.agents ?? loaded.default;
  if (!Array.isArray(agents) || agents.length === 0 || !agents.every(isHosted)) {
    throw new Error(
      `PREPICK_AGENTS_MODULE ${JSON.stringify(path)} must export \`agents\` (or a default export): ` +
        "a non-empty array of agents made with defineAgent or @Agent.",
    );
  }
  const authenticate = loaded.authenticate;
  if (authenticate !== undefined && typeof authenticate !== "function") {
    throw new Error(
      `PREPICK_AGENTS_MODULE ${JSON.stringify(path)} exports \`authenticate\`, but it is not a function: ` +
        "it must be (request) => actorId | undefined.",
    );
  }
  return authenticate === undefined ? { agents } : { agents, authenticate: authenticate as Authenticate };
}
