import type { ToolResultPart } from "ai";
import type { Question } from "prepick/core";
import { approvalQuestions } from "../agents/editable-fields";
import { requiresApproval } from "../agents/requires-approval";
import type { ToolDefinition } from "../agents/types";
import { withDeadline } from "./deadline";
import { editedToolResult } from "./edited-result";
import type { StepToolCall } from "./model-step";
import { approvalEditsOf, awaitSettlement } from "./settlement";
import { expiryOf, type TurnContext } from "./turn-context";

/**
 * What `persist:toolcall:<callId>` records for a registered tool; the kind is decided here once.
 * An editable call awaiting approval also records its questions, pre-picked with the proposal.
 */
type ToolRecord =
  | { kind: "tool"; input: unknown; needsApproval: boolean; questions?: Question[] }
  | { kind: "unknown" | "invalid"; error: string };

/** What `persist:toolexec:<callId>` records: the handler's output or its failure. */
type ExecRecord = { ok: true; output: unknown } | { ok: false; error: string; code?: "tool-timeout" };

/** A tool handler that did not finish within its time limit. */
class ToolTimeoutError extends Error {
  constructor(
    readonly toolName: string,
    readonly ms: number,
  ) {
    super(`${toolName} did not finish within ${ms} ms, so it was stopped.`);
    this.name = "ToolTimeoutError";
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function invalidInput(tool: ToolDefinition, issues: readonly { path: PropertyKey[]; message: string }[]) {
  const listed = issues.map((issue) => `${issue.path.map(String).join(".") || "input"}: ${issue.message}`);
  return `The input of ${tool.name} is invalid: ${listed.join("; ")}`;
}

async function decide(context: TurnContext, call: StepToolCall, tool: ToolDefinition | undefined) {
  if (!tool) {
    const known = context.agent.tools.map((candidate) => candidate.name);
    return {
      kind: "unknown",
      error: `There is no tool named "${call.toolName}". The tools are: ${known.join(", ") || "none"}.`,
    } satisfies ToolRecord;
  }
  const parsed = tool.inputSchema.safeParse(call.input);
  if (!parsed.success) return { kind: "invalid", error: invalidInput(tool, parsed.error.issues) } as const;
  const needsApproval = await requiresApproval({
    agent: context.agent,
    tool,
    input: parsed.data,
    actorId: context.run.actorId,
    ...(context.approvalPolicy ? { policy: context.approvalPolicy } : {}),
  });
  const fields = needsApproval ? context.agent.editing.get(tool.name) : undefined;
  return {
    kind: "tool",
    input: parsed.data,
    needsApproval,
    ...(fields ? { questions: approvalQuestions(fields, parsed.data) } : {}),
  } satisfies ToolRecord;
}

/**
 * Runs one registered tool call: `persist:toolcall` (row, kind and approval verdict), then the
 * approval signal when a person must approve, then `persist:toolexec` or `persist:toolreject`.
 * A side-effecting handler claims its execution first, so a replay never runs it twice.
 */
export async function runTool(context: TurnContext, call: StepToolCall): Promise<ToolResultPart["output"]> {
  const { journal, store, run, agent } = context;
  const tool = agent.tools.find((candidate) => candidate.name === call.toolName);
  const record = await journal.step<ToolRecord>(
    `persist:toolcall:${call.id}`,
    () => decide(context, call, tool),
    (result) =>
      result.kind !== "tool"
        ? {
            frames: [
              { kind: "tool-call", id: call.id, toolName: call.toolName, input: call.input },
              { kind: "tool-error", id: call.id, error: result.error },
            ],
          }
        : {
            newCalls: [
              {
                id: call.id,
                threadId: run.threadId,
                actorId: run.actorId,
                name: call.toolName,
                status: result.needsApproval ? "pending_approval" : "running",
                input: result.input,
                ...(result.questions ? { questions: result.questions } : {}),
              },
            ],
            frames: [
              result.needsApproval
                ? {
                    kind: "approval-request",
                    id: call.id,
                    toolName: call.toolName,
                    input: result.input,
                    ...(tool?.description ? { description: tool.description } : {}),
                    ...(result.questions ? { questions: result.questions } : {}),
                    ...expiryOf(run),
                  }
                : { kind: "tool-call", id: call.id, toolName: call.toolName, input: result.input },
            ],
          },
  );
  if (record.kind !== "tool" || !tool) {
    return { type: "error-text", value: record.kind === "tool" ? "The tool is gone." : record.error };
  }
  // The edits a person made approving an editable call, journaled with the signal: a replay runs
  // the tool with the same edited input.
  let edits: ReturnType<typeof approvalEditsOf>;
  if (record.needsApproval) {
    const settlement = await awaitSettlement(context, call.id);
    if (settlement.status === "rejected") {
      // The `tool-denied` frame streamed with the signal.
      const reason = (settlement.output as { reason?: string } | null)?.reason;
      await journal.step(`persist:toolreject:${call.id}`, async () => ({ reason: reason ?? null }));
      return { type: "execution-denied", ...(reason !== undefined ? { reason } : {}) };
    }
    if (record.questions) edits = approvalEditsOf(settlement);
  }
  const edited = record.questions && edits && edits.edited.length > 0 ? edits : undefined;
  const from = record.needsApproval ? "approved" : "running";
  const exec = await journal.step<ExecRecord>(
    `persist:toolexec:${call.id}`,
    async () => {
      let input = record.input;
      if (edited) {
        // Checked when the person approved; parsed again with the tool as it is now.
        const parsed = tool.inputSchema.safeParse(edited.input);
        if (!parsed.success) return { ok: false, error: invalidInput(tool, parsed.error.issues) };
        input = parsed.data;
      }
      if (tool.sideEffects && !(await store.toolCalls.claimExecution(call.id))) {
        return {
          ok: false,
          error:
            `The result of ${tool.name} (call ${call.id}) was lost: the server stopped after the tool started ` +
            "and before its result was recorded. The tool was not run again, so its work is not done twice.",
        };
      }
      const ms = tool.timeoutMs ?? context.timeouts.toolMs;
      try {
        const output = await withDeadline(
          context.abortSignal,
          ms,
          async (abortSignal) =>
            tool.execute(input, {
              runId: run.id,
              threadId: run.threadId,
              actorId: run.actorId,
              toolCallId: call.id,
              idempotencyKey: `${run.id}:${call.id}`,
              abortSignal,
            }),
          () => new ToolTimeoutError(tool.name, ms),
        );
        return { ok: true, output: output ?? null };
      } catch (error) {
        // Cancelled or stopping: nothing is recorded, the run ends (or is replayed) as it should.
        if (context.abortSignal?.aborted) throw context.abortSignal.reason;
        if (error instanceof ToolTimeoutError)
          return { ok: false, error: error.message, code: "tool-timeout" };
        return { ok: false, error: `${tool.name} failed: ${message(error)}` };
      }
    },
    (result) => ({
      movedCalls: [
        {
          id: call.id,
          from,
          to: result.ok ? "completed" : "failed",
          output: result.ok ? result.output : { error: result.error },
        },
      ],
      frames: [
        result.ok
          ? { kind: "tool-output", id: call.id, output: result.output }
          : {
              kind: "tool-error",
              id: call.id,
              error: result.error,
              ...(result.code ? { code: result.code } : {}),
            },
      ],
    }),
  );
  if (edited && record.questions) return editedToolResult(record.questions, record.input, edited, exec);
  return exec.ok ? { type: "json", value: exec.output as never } : { type: "error-text", value: exec.error };
}
