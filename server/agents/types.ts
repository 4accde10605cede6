import type { LanguageModel } from "ai";
import type { Intake, IntakeConfig } from "prepick/core";
import type { z } from "zod";
import type { EditableField } from "./editable-fields";

/** What a tool's handler knows about the call it is running for. */
export interface ToolContext {
  /** The run the call belongs to. */
  runId: string;
  /** The thread the run belongs to. */
  threadId: string;
  /** The actor who owns the thread. */
  actorId: string;
  /** The model's id for this call. */
  toolCallId: string;
  /**
   * Stable across every retry and resume of this one call: a handler with side effects passes it
   * to the system it changes, so a replayed call cannot act twice.
   */
  idempotencyKey: string;
  /**
   * Aborted when the run is cancelled, the server stops, or the call runs past its time limit: a
   * handler passes it on (to `fetch`, a driver) so its work stops too. The loop lets go of the
   * call at that moment either way.
   */
  abortSignal: AbortSignal;
}

/**
 * A registered tool the model may call: a name, what it is for, the zod schema of its input, and
 * the handler the loop runs once the call is allowed.
 */
// biome-ignore lint/suspicious/noExplicitAny: a tool list holds tools of every input and output type
export interface ToolDefinition<Input = any, Output = unknown> {
  /** Unique among the agent's tools; `ask` is reserved. Letters, digits, `_` and `-`. */
  name: string;
  /** What the model is told the tool does. */
  description: string;
  /** The input's schema; the model sees it as JSON Schema, and the loop parses calls with it. */
  inputSchema: z.ZodType<Input>;
  /** Runs the tool. Its result is what the model reads back. */
  execute(input: Input, context: ToolContext): Output | Promise<Output>;
  /** True when running the tool changes something outside the run (purges, sends, books). */
  sideEffects?: boolean;
  /** Whether a person approves the call before it runs: always, never, or decided per input. */
  needsApproval?: boolean | ((input: Input) => boolean);
  /**
   * Which fields of the input the person approving may change before the tool runs: `true` for
   * every field, or their names. Each becomes a question pre-picked with the model's proposed
   * value; a field a question cannot express is refused when the agents load. Takes effect on
   * the calls that need approval.
   */
  editable?: boolean | readonly (keyof Input & string)[];
  /**
   * How long the handler may take, in ms; past it the call fails with a `tool-timeout` error the
   * model reads. Default: the agent's `timeouts.toolMs`, else the server's `toolTimeoutMs`.
   */
  timeoutMs?: number;
  /**
   * Words that make the embedded scripted model call this tool when a request contains one,
   * besides the tool's own name. Ignored by real models.
   */
  keywords?: string[];
}

/** A tool call the loop is about to run, as an {@link ApprovalPolicy} sees it. */
export interface ApprovalCall {
  /** The agent whose model made the call. */
  agent: string;
  /** The registered tool's name. */
  toolName: string;
  /** The parsed input. */
  input: unknown;
  /** The actor who owns the thread. */
  actorId: string;
  /** The tool's own verdict, from its `needsApproval`; a policy may keep or override it. */
  needsApproval: boolean;
}

/**
 * Decides, for one tool call, whether a person must approve it before it runs. Module-wide and
 * deterministic across processes: every pod of a deployment must reach the same verdict.
 */
export type ApprovalPolicy = (call: ApprovalCall) => boolean | Promise<boolean>;

/** An agent as its author writes it, for {@link defineAgent} or the `@Agent` decorator. */
export interface AgentConfig {
  /** Unique on the server; what `POST /agent/chat` names in `agent`. */
  name: string;
  /** The system prompt of every model call the agent makes. */
  systemPrompt: string;
  /** The registered tools the model may call. */
  tools?: ToolDefinition[];
  /** Questions asked before the turn starts; costs no model call. */
  intake?: IntakeConfig;
  /** Offers the model the `ask` tool; overrides the module's `ask`. */
  ask?: boolean;
  /** The agent's own model; otherwise the module's, otherwise the resolved default. */
  model?: LanguageModel;
  /** How long the agent's model calls and tool calls may take; otherwise the server's limits. */
  timeouts?: AgentTimeouts;
  /**
   * An opt-in bound on each of the agent's runs, in ms from its start: once it passes while the
   * run waits on a person, the run ends cancelled and the call expires, never settled with its
   * defaults. None by default: a run waits as long as it takes. A chat request may set its own.
   */
  expiresAfterMs?: number;
}

/** How long an agent's calls may take, in ms; each left out takes the server's own limit. */
export interface AgentTimeouts {
  /**
   * One model call, from its request to its last chunk. Past it the run fails with
   * `model-timeout`. Server default: `modelTimeoutMs` (`PREPICK_MODEL_TIMEOUT_MS`).
   */
  modelMs?: number;
  /**
   * One tool handler. Past it the call fails with `tool-timeout` and the model reads why. Server
   * default: `toolTimeoutMs` (`PREPICK_TOOL_TIMEOUT_MS`).
   */
  toolMs?: number;
}

/** An agent after {@link checkAgents}: what the loop runs. */
export interface AgentDefinition {
  /** Unique on the server. */
  name: string;
  /** The system prompt of every model call the agent makes. */
  systemPrompt: string;
  /** The registered tools, names unique and never `ask`. */
  tools: ToolDefinition[];
  /** The editable fields of each tool that declares `editable`, by tool name. */
  editing: ReadonlyMap<string, readonly EditableField[]>;
  /** The checked intake: `when` filled in, a hotkey on every option. */
  intake?: Intake;
  /** Whether the model is offered `ask`: the agent's own setting, else the module's, else false. */
  ask: boolean;
  /** The agent's own model, if it has one. */
  model?: LanguageModel;
  /** The agent's own time limits, if it set any. */
  timeouts?: AgentTimeouts;
  /** The bound on each of its runs, in ms from the run's start, if it set one. */
  expiresAfterMs?: number;
}

/** A class decorated with `@Agent(config)`. */
// biome-ignore lint/suspicious/noExplicitAny: any class may carry an agent definition
export type AgentClass = abstract new (...args: any[]) => unknown;

/** The options of the agent module: the agents it hosts and what applies to all of them. */
export interface AgentModuleOptions {
  /** The agents, as configs or as classes decorated with `@Agent`. */
  agents: ReadonlyArray<AgentConfig | AgentClass>;
  /** Offers every agent's model the `ask` tool unless the agent says otherwise. Default false. */
  ask?: boolean;
  /** Decides which tool calls a person approves; default: each tool's own `needsApproval`. */
  approvalPolicy?: ApprovalPolicy;
  /** The model of agents that declare none; default: `resolveModel()`. */
  model?: LanguageModel;
}
