import { ASK_TOOL_NAME, type ElicitationRequest } from "prepick/core";
import type { AgentDefinition } from "../agents/types";
import type { OutboxRow } from "../store/webhook-outbox";

/** What a waiting call asks: the question set's prompts, or the tool, its description and its input. */
export type WebhookAsked =
  | { preamble?: string; questions: { id: string; prompt: string }[] }
  | { tool: { name: string; description?: string; input: unknown } };

/** The `data` of a `call.*` event. */
export interface CallEventData {
  /** Who the call waits for: the thread's owner. */
  actorId: string;
  /** The conversation. */
  threadId: string;
  /** The agent of the conversation. */
  agent: string;
  /** The run that waits. */
  runId: string;
  /** The call: the id answer, skip, approve and reject name. */
  callId: string;
  /** A question set or an approval. */
  kind: "questions" | "approval";
  /** What it asks. */
  asked: WebhookAsked;
  /** When it started waiting (ISO 8601). */
  askedAt: string;
  /** `call.settled` only: answered, skipped, approved, rejected, cancelled or expired. */
  outcome?: string;
  /** `call.settled` only: when it stopped waiting (ISO 8601). */
  settledAt?: string;
  /** Its run's opt-in deadline (ISO 8601), when it has one: past it, the call expires undecided. */
  expiresAt?: string;
  /** The page that opens just this call, answerable there, for its owner. */
  link: string;
  /** The page of its conversation. */
  conversationLink: string;
}

/** The `data` of a `run.*` event. */
export interface RunEventData {
  actorId: string;
  threadId: string;
  agent: string;
  runId: string;
  /** completed, failed or cancelled. */
  status: string;
  /** A failure's sentence, when it failed. */
  error?: string;
  /** When it ended (ISO 8601). */
  finishedAt?: string;
  /** Its opt-in deadline (ISO 8601), when it had one. */
  expiresAt?: string;
  /** `run.cancelled` only: true when the deadline passed while it waited on a person. */
  expired?: boolean;
  /** The page of its conversation. */
  conversationLink: string;
}

/** A webhook's body, as Standard Webhooks shapes it: the type, when it happened, and the data. */
export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: CallEventData | RunEventData;
}

/** Where the links of a payload point: the server's (or the app's) public origin. */
export interface WebhookLinks {
  /** The page of one waiting call. */
  call(callId: string): string;
  /** The page of a conversation. */
  conversation(agent: string, threadId: string): string;
}

/** The links of the demo page's routes under `origin`: `/answer/<callId>` and `/?agent=&thread=`. */
export function linksUnder(origin: () => string): WebhookLinks {
  const base = () => origin().replace(/\/+$/, "");
  return {
    call: (callId) => `${base()}/answer/${encodeURIComponent(callId)}`,
    conversation: (agent, threadId) =>
      `${base()}/?${new URLSearchParams({ agent, thread: threadId }).toString()}`,
  };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const iso = (value: unknown) =>
  value === null || value === undefined ? undefined : new Date(String(value)).toISOString();

function askedOf(data: Record<string, unknown>, agent: AgentDefinition | undefined): WebhookAsked {
  const name = text(data.name);
  if (name === ASK_TOOL_NAME) {
    const request = (data.input ?? {}) as Partial<ElicitationRequest>;
    return {
      ...(request.preamble ? { preamble: request.preamble } : {}),
      questions: (request.questions ?? []).map((question) => ({ id: question.id, prompt: question.prompt })),
    };
  }
  const description = agent?.tools.find((tool) => tool.name === name)?.description;
  return { tool: { name, ...(description ? { description } : {}), input: data.input ?? null } };
}

/**
 * The body of one outbox row, from what its trigger recorded at the change, the agents' tool
 * descriptions and the links: the same for every attempt, as long as the configuration is.
 */
export function webhookPayload(
  row: Pick<OutboxRow, "type" | "data" | "createdAt">,
  agents: ReadonlyMap<string, AgentDefinition>,
  links: WebhookLinks,
): WebhookPayload {
  const { data } = row;
  const agent = text(data.agent);
  const common = {
    actorId: text(data.actorId),
    threadId: text(data.threadId),
    agent,
    runId: text(data.runId),
  };
  const conversationLink = links.conversation(agent, common.threadId);
  const expiresAt = iso(data.expiresAt);
  if (row.type.startsWith("run.")) {
    const error = data.error;
    const finishedAt = iso(data.finishedAt);
    const cancelled = row.type === "run.cancelled";
    return {
      type: row.type,
      timestamp: row.createdAt,
      data: {
        ...common,
        status: text(data.status),
        ...(typeof error === "string" ? { error } : {}),
        ...(finishedAt ? { finishedAt } : {}),
        ...(expiresAt ? { expiresAt } : {}),
        ...(cancelled ? { expired: data.expired === true } : {}),
        conversationLink,
      },
    };
  }
  const callId = text(data.callId);
  const settled = row.type === "call.settled";
  const settledAt = iso(data.settledAt);
  return {
    type: row.type,
    timestamp: row.createdAt,
    data: {
      ...common,
      callId,
      kind: text(data.name) === ASK_TOOL_NAME ? "questions" : "approval",
      asked: askedOf(data, agents.get(agent)),
      askedAt: iso(data.askedAt) ?? row.createdAt,
      ...(settled ? { outcome: text(data.status) } : {}),
      ...(settled && settledAt ? { settledAt } : {}),
      ...(expiresAt ? { expiresAt } : {}),
      link: links.call(callId),
      conversationLink,
    },
  };
}
