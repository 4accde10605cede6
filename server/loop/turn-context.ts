import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { ModelMessage } from "ai";
import type { Frame } from "prepick/core";
import type { AgentDefinition, ApprovalPolicy } from "../agents/types";
import type { RunRow } from "../store/rows";
import type { Store } from "../store/store";
import type { Journal } from "./journal";

/** The run's followers in this process, as a model call streams to them before its frames are stored. */
export interface LiveRun {
  /** Streams frames of the model call in progress; they follow stored frame `after`. */
  provisional(after: number, frames: readonly Frame[]): void;
  /** The model call in progress ended without storing its frames. */
  abandon(): void;
}

/** Everything one replay of a turn needs. */
export interface TurnContext {
  /** The store. */
  store: Store;
  /** The run being replayed. */
  run: RunRow;
  /** The run's agent. */
  agent: AgentDefinition;
  /** The model the agent calls. */
  model: LanguageModelV4;
  /** Decides which tool calls a person approves. */
  approvalPolicy?: ApprovalPolicy;
  /** The run's journal, as a replay cursor. */
  journal: Journal;
  /** The thread's earlier turns, as model messages; read once, when first asked for. */
  history: () => Promise<ModelMessage[]>;
  /** Stores frames outside a checkpoint (what a failed model call streamed), in order, in one write. */
  emit: (frames: readonly Frame[]) => Promise<void>;
  /** This process's followers of the run. */
  live: LiveRun;
  /** Whether the process is stopping: a model call it cuts short is made again elsewhere. */
  stopping: () => boolean;
  /**
   * The run's own signal: aborted when the run is cancelled (its reason a {@link CancelSignal}) or
   * the process stops. The model call and the tool in flight are aborted with it, and let go of.
   */
  abortSignal?: AbortSignal;
  /** How long one model call, and one tool call, may take, in ms. */
  timeouts: RunTimeouts;
}

/** How long a run's calls may take, resolved for its agent. */
export interface RunTimeouts {
  /** One model call, from its start to its last chunk. */
  modelMs: number;
  /** One tool handler, from its start to its result. */
  toolMs: number;
}

/** Thrown to stop the replay where it waits for a person; the worker parks the run. */
export class ParkSignal {
  /** @param callId The pending tool call the run waits on. */
  constructor(readonly callId: string) {}
}

/** Thrown when the run was cancelled; the worker ends it as cancelled. */
export class CancelSignal {}

/** A waiting call's frame fields for the run's deadline: `expiresAt` when the run has one. */
export function expiryOf(run: RunRow): { expiresAt?: string } {
  return run.expiresAt ? { expiresAt: run.expiresAt } : {};
}
