import type { LanguageModel, ModelMessage } from "ai";
import type { Frame } from "prepick/core";
import type { AgentDefinition, ApprovalPolicy } from "../agents/types";
import type { RunRow, ToolCallStatus } from "../store/rows";
import type { Store } from "../store/store";
import type { Journal } from "./journal";

/** Everything one replay of a turn needs. */
export interface TurnContext {
  /** The store. */
  store: Store;
  /** The run being replayed. */
  run: RunRow;
  /** The run's agent. */
  agent: AgentDefinition;
  /** The model the agent calls. */
  model: LanguageModel;
  /** Decides which tool calls a person approves. */
  approvalPolicy?: ApprovalPolicy;
  /** The run's journal, as a replay cursor. */
  journal: Journal;
  /** The thread's earlier turns, as model messages; read once, when first asked for. */
  history: () => Promise<ModelMessage[]>;
  /** Settlements this process just committed, by call id: spares the `signal:tool:` step a read. */
  settlements?: Map<string, Settlement>;
  /** Streams frames outside a checkpoint (model output as it arrives), in order, in one write. */
  emit: (frames: readonly Frame[]) => Promise<void>;
  /** Aborts model calls when the process stops. */
  abortSignal?: AbortSignal;
}

/** Thrown to stop the replay where it waits for a person; the worker parks the run. */
export class ParkSignal {
  /** @param waitingFor The pending tool calls. */
  constructor(readonly waitingFor: string[]) {}
}

/** Thrown when the run was cancelled; the worker ends it as cancelled. */
export class CancelSignal {}

/** How a person settled a pending row, as recorded by its `signal:tool:` checkpoint. */
export interface Settlement {
  /** The row's status after settling. */
  status: ToolCallStatus;
  /** The row's output: the outcome of a question set, the reason of a rejection. */
  output: unknown;
}

/**
 * The `signal:tool:<runId>:<callId>` step: the settlement a person made, or a park when the row
 * still waits. The result is journaled, so a replay never reads the row again.
 */
export function awaitSettlement(context: TurnContext, callId: string): Promise<Settlement> {
  const { journal, store, run } = context;
  return journal.signal(`signal:tool:${run.id}:${callId}`, async () => {
    const known = context.settlements?.get(callId);
    if (known) {
      context.settlements?.delete(callId);
      return known;
    }
    const row = await store.toolCall(callId);
    if (!row) throw new Error(`The tool call ${callId} of run ${run.id} has no row.`);
    if (row.status === "pending_approval") {
      const current = await store.run(run.id);
      if (current?.cancelRequested) throw new CancelSignal();
      throw new ParkSignal([callId]);
    }
    if (row.status === "cancelled") throw new CancelSignal();
    return { status: row.status, output: row.output };
  });
}
