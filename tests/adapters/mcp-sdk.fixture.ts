import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type ElicitRequestFormParams,
  ElicitRequestSchema,
  type ElicitRequestURLParams,
  type ElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { createElicitation } from "@/hooks/create-elicitation";
import type { ElicitationBlock } from "@/hooks/transcript-types";
import type { ElicitationOutcome, ElicitationRequest } from "@/lib/prepick/core/question";
import {
  mcpElicitationToRequest,
  mcpResultToOutcome,
  outcomeToMcpResult,
  type ParsedMcpElicitation,
} from "@/lib/prepick/transport/adapters/mcp-elicitation";

/** What a person does with the form: sets values, toggles options, confirms, skips. */
export type Person = (block: ElicitationBlock) => void | Promise<void>;

/** One `elicitInput` call, as both ends saw it. */
export interface McpRoundTrip {
  /** How the client read the request. */
  parsed: ParsedMcpElicitation;
  /** The form the person used, when the request could be asked. */
  block?: ElicitationBlock;
  /** What the client sent back. */
  sent?: ElicitResult;
  /** What `Server.elicitInput` resolved with: the result the server's own validation let through. */
  received?: ElicitResult;
  /** What `Server.elicitInput` threw (the SDK's `-32602 … does not match requested schema`, say). */
  error?: Error;
  /** The received result read back as an outcome, as a Prepick server would record it. */
  outcome?: ElicitationOutcome;
}

/** A real MCP `Server` and `Client` over the SDK's in-memory transport, the client answering through Prepick. */
export interface McpPair {
  /** The server asks; the person answers through a Prepick form; both ends' view comes back. */
  elicit: (params: ElicitRequestFormParams | ElicitRequestURLParams, person: Person) => Promise<McpRoundTrip>;
  /** Closes both ends. */
  close: () => Promise<void>;
}

/**
 * Connects an MCP server to a client whose elicitation handler reads the request with
 * `mcpElicitationToRequest`, shows it as a Prepick block (`createElicitation`, settled in the page
 * with `settleAnswers`), lets the person act, and replies with `outcomeToMcpResult`: a form the
 * person left unsettled (refused, or never confirmed) is a `cancel`.
 */
export async function connectMcpPair(): Promise<McpPair> {
  const server = new Server({ name: "asking-server", version: "1.0.0" }, { capabilities: {} });
  const client = new Client(
    { name: "prepick-client", version: "1.0.0" },
    // URL mode declared too, so a server may send it and the adapter's refusal is what answers.
    { capabilities: { elicitation: { form: {}, url: {} } } },
  );
  let current: { person: Person; trip: McpRoundTrip } | undefined;
  let count = 0;

  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const turn = current as { person: Person; trip: McpRoundTrip };
    // The SDK's own params type goes straight in: URL mode included, refused at run time.
    const parsed = mcpElicitationToRequest(request.params);
    turn.trip.parsed = parsed;
    if (!parsed.success) {
      turn.trip.sent = { action: "cancel" };
      return turn.trip.sent;
    }
    count += 1;
    const block = createElicitation({ id: `elicitation-${count}`, request: parsed.request });
    turn.trip.block = block;
    await turn.person(block);
    const snapshot = block.getSnapshot();
    const result: ElicitResult = outcomeToMcpResult(parsed.request, snapshot.settled?.outcome);
    turn.trip.sent = result;
    return result;
  });

  const [serverEnd, clientEnd] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverEnd), client.connect(clientEnd)]);

  return {
    async elicit(params, person) {
      const trip = { parsed: { success: false, issues: [] } } as McpRoundTrip;
      current = { person, trip };
      try {
        trip.received = await server.elicitInput(params);
        if (trip.parsed.success) trip.outcome = readBack(trip.parsed.request, trip.received);
      } catch (error) {
        trip.error = error as Error;
      }
      return trip;
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
}

function readBack(request: ElicitationRequest, result: ElicitResult): ElicitationOutcome | undefined {
  // The SDK's own result type goes straight in.
  return mcpResultToOutcome(request, result);
}

/** A person who confirms what the form shows. */
export const confirms: Person = (block) => block.submit();
