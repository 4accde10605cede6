import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type BaseEvent, type RunAgentInput, transformChunks, verifyEvents } from "@ag-ui/client";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { EventEncoder } from "@ag-ui/encoder";
import { from, lastValueFrom, type Observable, toArray } from "rxjs";

/** What a producer sends for one run: events, or an `@ag-ui/client` agent's `run()` observable. */
export type AgUiResponder = (input: RunAgentInput, index: number) => BaseEvent[] | Observable<BaseEvent>;

/** A loopback AG-UI endpoint, and what passed through it. */
export interface AgUiServer {
  /** The endpoint to POST a `RunAgentInput` to. */
  url: string;
  /** Every input received, checked with `@ag-ui/core`'s own `RunAgentInputSchema`. */
  inputs: RunAgentInput[];
  /** The events of each response, as the producer sent them. */
  responses: BaseEvent[][];
  /** Resolves when every response so far passes `@ag-ui/client`'s own verifier, else rejects with its error. */
  verified: () => Promise<void>;
  /** Stops the server. */
  close: () => Promise<void>;
}

/** Runs the events of one response through the reference client's chunk expansion and verifier. */
export async function verifyResponse(events: readonly BaseEvent[]): Promise<void> {
  await lastValueFrom(from(events).pipe(transformChunks(false), verifyEvents(false), toArray()));
}

/**
 * A real HTTP server that speaks AG-UI as `HttpAgent` expects it: `POST` a `RunAgentInput`, answered
 * with `@ag-ui/encoder`'s server-sent events. An input the schema refuses is answered 400.
 */
export async function startAgUiServer(respond: AgUiResponder): Promise<AgUiServer> {
  const inputs: RunAgentInput[] = [];
  const responses: BaseEvent[][] = [];
  const server: Server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk) => {
      raw += chunk;
    });
    request.on("end", () => {
      const parsed = RunAgentInputSchema.safeParse(raw ? JSON.parse(raw) : undefined);
      if (request.method !== "POST" || !parsed.success) {
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: parsed.error?.message ?? "POST a RunAgentInput" }));
        return;
      }
      const input = parsed.data as RunAgentInput;
      inputs.push(input);
      const sent: BaseEvent[] = [];
      responses.push(sent);
      const encoder = new EventEncoder({ accept: request.headers.accept ?? "text/event-stream" });
      response.writeHead(200, { "content-type": encoder.getContentType(), "cache-control": "no-cache" });
      const write = (event: BaseEvent) => {
        sent.push(event);
        response.write(encoder.encodeSSE(event));
      };
      const events = respond(input, inputs.length - 1);
      if (Array.isArray(events)) {
        for (const event of events) write(event);
        response.end();
        return;
      }
      events.subscribe({ next: write, error: () => response.end(), complete: () => response.end() });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/agent/ag-ui`,
    inputs,
    responses,
    verified: async () => {
      for (const events of responses) await verifyResponse(events);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A run the client stopped may still hold its response open.
        server.closeAllConnections();
      }),
  };
}
