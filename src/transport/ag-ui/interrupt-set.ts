import type { Interrupt } from "@ag-ui/client";
import { checkQuestions } from "@/lib/prepick/core/check-questions";
import {
  type ElicitationOutcome,
  type ElicitationRequest,
  ElicitationRequestSchema,
  type Question,
  QuestionSchema,
} from "@/lib/prepick/core/question";
import {
  type McpElicitationFormParams,
  mcpElicitationToRequest,
  outcomeToMcpResult,
} from "@/lib/prepick/transport/adapters/mcp-elicitation";

/** The key of `Interrupt.metadata` under which a Prepick producer carries its own question set. */
export const PREPICK_METADATA_KEY = "prepick";

/** An interrupt that asks questions, and where its questions sit in the set's one question set. */
export interface QuestionInterrupt {
  /** The interrupt. */
  interruptId: string;
  /** Its questions as the producer named them. */
  request: ElicitationRequest;
  /** Put before its question ids in the merged set: empty unless several interrupts ask. */
  prefix: string;
}

/** An interrupt without questions, shown as an approval of a tool part. */
export interface ApprovalInterrupt {
  /** The interrupt (also the approval id). */
  interruptId: string;
  /** The tool part the approval shows on: the interrupt's streamed tool call, or a part of its own. */
  toolCallId: string;
  /** True when the part is the interrupt's own, because no streamed tool call matches it. */
  ownPart: boolean;
  /** The tool's name (the interrupt's `reason` for a part of its own). */
  toolName: string;
  /** What the tool does, when the producer says (`metadata.prepick.description`). */
  description?: string;
  /** When it stops being answerable (ISO 8601), when the interrupt says (`expiresAt`). */
  expiresAt?: string;
  /**
   * When the call's input is editable: its fields as questions pre-picked with the proposal, and
   * the proposal itself (`metadata.prepick.questions` and `input`, as a Prepick producer sends them).
   */
  edit?: { questions: Question[]; input: Record<string, unknown> };
}

/** An interrupt set as Prepick shows it: at most one question set, and one approval per other interrupt. */
export interface InterruptSet {
  /** The interrupts, as the run's `RUN_FINISHED` carried them. */
  interrupts: Interrupt[];
  /** The one `ask` part, when any interrupt asks questions. */
  questions?: {
    /** The `ask` part's tool call id: the first asking interrupt's id. */
    toolCallId: string;
    /** Every asking interrupt's questions in one set. */
    request: ElicitationRequest;
    /** The asking interrupts. */
    sources: QuestionInterrupt[];
    /** The earliest of their `expiresAt` (ISO 8601), when any says one. */
    expiresAt?: string;
  };
  /** The other interrupts. */
  approvals: ApprovalInterrupt[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A Prepick producer's own question set, carried in `metadata.prepick.request`. */
function carriedRequest(interrupt: Interrupt): ElicitationRequest | undefined {
  const carried = interrupt.metadata?.[PREPICK_METADATA_KEY];
  const parsed = ElicitationRequestSchema.safeParse(isRecord(carried) ? carried.request : undefined);
  if (!parsed.success || parsed.data.questions.length === 0) return undefined;
  return checkQuestions(parsed.data.questions).length === 0 ? parsed.data : undefined;
}

/** The tool's description a Prepick producer carries in `metadata.prepick.description`. */
function carriedDescription(interrupt: Interrupt): string | undefined {
  const carried = interrupt.metadata?.[PREPICK_METADATA_KEY];
  const description = isRecord(carried) ? carried.description : undefined;
  return typeof description === "string" && description !== "" ? description : undefined;
}

/**
 * The editable fields a Prepick producer carries with an approval (`metadata.prepick.questions`,
 * beside the proposed `input`): the interrupt is then an approval with a form, not a question set,
 * though its `responseSchema` describes the same fields for clients that only read that.
 */
function carriedEdit(interrupt: Interrupt): ApprovalInterrupt["edit"] {
  const carried = interrupt.metadata?.[PREPICK_METADATA_KEY];
  if (!isRecord(carried) || !Array.isArray(carried.questions) || !isRecord(carried.input)) return undefined;
  const parsed = QuestionSchema.array().min(1).safeParse(carried.questions);
  if (!parsed.success) return undefined;
  // The model may have left a choice empty: the producer invents no pick on its behalf.
  if (checkQuestions(parsed.data, { unpickedChoices: true }).length > 0) return undefined;
  return { questions: parsed.data, input: carried.input };
}

/** The questions `responseSchema` describes, read as MCP's restricted form schema. */
function schemaRequest(interrupt: Interrupt): ElicitationRequest | undefined {
  const schema = interrupt.responseSchema;
  if (!isRecord(schema) || schema.type !== "object" || !isRecord(schema.properties)) return undefined;
  if (Object.keys(schema.properties).length === 0) return undefined;
  const params = {
    message: interrupt.message ?? "",
    requestedSchema: schema as McpElicitationFormParams["requestedSchema"],
  };
  try {
    const parsed = mcpElicitationToRequest(params);
    return parsed.success ? parsed.request : undefined;
  } catch {
    // A schema shaped unlike MCP's (a property that is not an object, say) asks nothing we can read.
    return undefined;
  }
}

/** The questions an interrupt asks: its carried Prepick set, else its `responseSchema`, else none. */
export function interruptRequest(interrupt: Interrupt): ElicitationRequest | undefined {
  return carriedRequest(interrupt) ?? schemaRequest(interrupt);
}

/** When an interrupt stops being answerable, as a date; undefined when it does not say, or not as a date. */
export function expiryOf(interrupt: Interrupt): Date | undefined {
  if (interrupt.expiresAt === undefined) return undefined;
  const date = new Date(interrupt.expiresAt);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function earliestExpiry(interrupts: readonly Interrupt[]): Date | undefined {
  const dates = interrupts.flatMap((interrupt) => expiryOf(interrupt) ?? []);
  return dates.length === 0 ? undefined : new Date(Math.min(...dates.map((date) => date.getTime())));
}

function mergeQuestions(sources: QuestionInterrupt[]): ElicitationRequest {
  const preambles = sources.map((source) => source.request.preamble).filter((text) => !!text);
  const only = sources.length === 1 ? sources[0] : undefined;
  return {
    ...(preambles.length > 0 ? { preamble: preambles.join("\n\n") } : {}),
    questions: sources.flatMap((source) =>
      source.request.questions.map((question) => ({ ...question, id: source.prefix + question.id })),
    ),
    source: only?.request.source ?? "ask",
  };
}

/**
 * Reads an interrupt set as Prepick shows it. Every interrupt whose questions can be read (a
 * Prepick set in `metadata`, else `responseSchema`) joins the one `ask` part, `message` as its
 * preamble; when several ask, their question ids are prefixed `1.`, `2.`… so they cannot collide.
 * Every other interrupt is an approval: of its streamed tool call (`toolCallId`, when `tools` knows
 * it), else of a tool part of its own named after its `reason`. A Prepick approval whose input is
 * editable (`metadata.prepick.questions`) is an approval with its fields, whatever its
 * `responseSchema` says.
 */
export function readInterruptSet(
  interrupts: Interrupt[],
  tools: Readonly<Record<string, { toolName: string }>>,
): InterruptSet {
  const read = interrupts.map((interrupt) => {
    const edit = carriedEdit(interrupt);
    return { interrupt, edit, request: edit ? undefined : interruptRequest(interrupt) };
  });
  const asking = read.filter((entry) => entry.request !== undefined);
  const sources = asking.map(({ interrupt, request }, index) => ({
    interruptId: interrupt.id,
    request: request as ElicitationRequest,
    prefix: asking.length > 1 ? `${index + 1}.` : "",
  }));
  const approvals = read
    .filter((entry) => entry.request === undefined)
    .map(({ interrupt, edit }): ApprovalInterrupt => {
      const streamed = interrupt.toolCallId === undefined ? undefined : tools[interrupt.toolCallId];
      const description = carriedDescription(interrupt);
      const expiry = expiryOf(interrupt);
      return {
        interruptId: interrupt.id,
        ...(streamed
          ? { toolCallId: interrupt.toolCallId as string, ownPart: false, toolName: streamed.toolName }
          : { toolCallId: interrupt.id, ownPart: true, toolName: interrupt.reason }),
        ...(description !== undefined ? { description } : {}),
        ...(expiry ? { expiresAt: expiry.toISOString() } : {}),
        ...(edit ? { edit } : {}),
      };
    });
  const expiry = earliestExpiry(asking.map((entry) => entry.interrupt));
  const first = sources[0];
  return {
    interrupts,
    approvals,
    ...(first
      ? {
          questions: {
            toolCallId: first.interruptId,
            request: mergeQuestions(sources),
            sources,
            ...(expiry ? { expiresAt: expiry.toISOString() } : {}),
          },
        }
      : {}),
  };
}

/**
 * What an approval of an interrupt's own part shows as the tool's input: its message. Its
 * `expiresAt` rides as the part's metadata, which the card says in the page's language.
 */
export function approvalInput(interrupt: Interrupt): Record<string, unknown> {
  return interrupt.message !== undefined ? { message: interrupt.message } : {};
}

/**
 * The resume payload of one asking interrupt: its share of the answers, in JSON types as MCP's
 * `content` carries them (numbers and booleans typed, a multi-select an array).
 */
export function resumePayload(
  source: QuestionInterrupt,
  outcome: ElicitationOutcome,
): Record<string, unknown> {
  const answers = Object.fromEntries(
    Object.entries(outcome.answers)
      .filter(([id]) => id.startsWith(source.prefix))
      .map(([id, values]) => [id.slice(source.prefix.length), values]),
  );
  const result = outcomeToMcpResult(source.request, { ...outcome, answers, skipped: false });
  return result.action === "accept" ? result.content : {};
}
