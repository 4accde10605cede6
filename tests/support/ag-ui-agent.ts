import { type BaseEvent, EventType, HttpAgent, type Interrupt, type RunFinishedEvent } from "@ag-ui/client";
import { verifyResponse } from "../../src/transport/ag-ui/ag-ui-server.fixture";

/** The reference client, as an actor, on a thread of a Prepick server's `POST /agent/ag-ui`. */
export function httpAgent(
  server: { url: string },
  actor: string,
  threadId: string,
  agent: string,
): HttpAgent {
  return new HttpAgent({
    url: `${server.url}/agent/ag-ui?agent=${agent}`,
    headers: { "x-actor-id": actor },
    threadId,
  });
}

/** One run through `HttpAgent`: every event it received (checked again by the client's verifier), or its error. */
export async function runAgent(agent: HttpAgent, parameters: Parameters<HttpAgent["runAgent"]>[0] = {}) {
  const events: BaseEvent[] = [];
  let error: Error | undefined;
  try {
    await agent.runAgent(parameters, {
      onEvent: ({ event }) => {
        events.push(event);
      },
    });
  } catch (caught) {
    error = caught as Error;
  }
  if (events.length > 0) await verifyResponse(events);
  return { events, error, types: events.map((event) => event.type) };
}

/** The run's `RUN_FINISHED`, if it finished. */
export function finished(events: readonly BaseEvent[]): RunFinishedEvent | undefined {
  return events.find((event): event is RunFinishedEvent => event.type === EventType.RUN_FINISHED);
}

/** The interrupts the run ended with. */
export function interruptsOf(events: readonly BaseEvent[]): Interrupt[] {
  const outcome = finished(events)?.outcome;
  return outcome?.type === "interrupt" ? outcome.interrupts : [];
}

/** Our run id, as `RUN_STARTED.metadata.prepick.runId` carries it. */
export function ourRunId(events: readonly BaseEvent[]): string {
  const started = events.find((event) => event.type === EventType.RUN_STARTED);
  return (started?.metadata as { prepick?: { runId?: string } } | undefined)?.prepick?.runId ?? "";
}

/** The assistant's text, joined. */
export function textOf(events: readonly BaseEvent[]): string {
  return events
    .filter((event) => event.type === EventType.TEXT_MESSAGE_CONTENT)
    .map((event) => String(event.delta))
    .join("");
}
