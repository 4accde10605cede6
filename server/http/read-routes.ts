import { intakeRequest } from "prepick/core";
import type { ThreadCursor } from "../store/threads";
import type { AgentApp, RouteContext } from "./context";
import { inboxStreamResponse } from "./inbox-stream";
import { encodeCursor, type PageQuery, readPageQuery } from "./page-query";
import { CLIENT_ID } from "./start-turn";

// The database's timestamp text, as a thread cursor carries it.
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2})){0,2}$/;
const VERSION = /^\d{1,15}$/;

/**
 * Whether a text is a timestamp the database made and takes back: the shape, and a real day and
 * time (a tampered `2026-02-31` or `25:00` would reach the statement and fail there, as a 500).
 */
function isTimestamp(text: string): boolean {
  const parts = TIMESTAMP.exec(text)
    ?.slice(1)
    .map((part) => Number(part ?? 0));
  if (!parts) return false;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offset = 0, offsetMinutes = 0] =
    parts;
  const date = new Date(Date.UTC(year, month - 1, day));
  const realDay = year >= 1 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return realDay && hour < 24 && minute < 60 && second < 60 && offset <= 15 && offsetMinutes < 60;
}

/** A thread cursor's fields, when they are what `ThreadStore.page` made. */
function readThreadCursor(decoded: Record<string, unknown>): ThreadCursor | undefined {
  const { asOf, activeAt, id } = decoded;
  if (typeof asOf !== "string" || typeof activeAt !== "string" || typeof id !== "string") return undefined;
  if (!isTimestamp(asOf) || !isTimestamp(activeAt) || !CLIENT_ID.test(id)) return undefined;
  return { asOf, activeAt, id };
}

/** An approvals cursor's inbox version. */
function readVersionCursor(decoded: Record<string, unknown>): number | undefined {
  const { version } = decoded;
  return Number.isSafeInteger(version) && (version as number) >= 0 ? (version as number) : undefined;
}

/** The 400 of a refused page query, naming the field and the value. */
function refused(query: Extract<PageQuery, { ok: false }>) {
  return { error: query.error, field: query.field, value: query.value };
}

/**
 * The read routes: the approvals inbox and its live feed, the conversations and the hosted agents
 * (a thread's own read is `thread-route.ts`). Every list is the actor's own and paged.
 */
export function readRoutes(app: AgentApp, context: RouteContext): void {
  app.get("/agent/approvals", async (c) => {
    const query = readPageQuery(c.req.query(), "approvals", readVersionCursor);
    if (!query.ok) return c.json(refused(query), 400);
    const after = (query.cursor as number | undefined) ?? 0;
    const rows = await context.store.pendingCalls.page(c.get("actorId"), after, query.limit + 1);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const nextCursor =
      rows.length > query.limit && last ? encodeCursor("approvals", { version: last.version }) : null;
    return c.json({ approvals: page.map(({ call }) => call), nextCursor });
  });

  app.get("/agent/approvals/stream", (c) => {
    const raw = c.req.header("last-event-id") ?? c.req.query("after");
    if (raw !== undefined && raw !== "" && !VERSION.test(raw)) {
      return c.json(
        {
          error: `Last-Event-ID or after must be an inbox version (0 or more); got ${JSON.stringify(raw.slice(0, 100))}`,
          field: c.req.header("last-event-id") !== undefined ? "Last-Event-ID" : "after",
          value: raw,
        },
        400,
      );
    }
    const actorId = c.get("actorId");
    if (!context.feeds.take(actorId)) {
      return c.json(
        {
          error:
            `This actor already has ${context.feeds.max} inbox feeds open, the most one actor may hold; ` +
            "close one (a browser shares one feed between its tabs), then try again.",
          field: "feeds",
          value: String(context.feeds.max),
        },
        429,
        { "retry-after": "5" },
      );
    }
    return inboxStreamResponse({
      store: context.store,
      hub: context.inboxHub,
      actorId,
      onEnd: () => context.feeds.give(actorId),
      after: raw === undefined || raw === "" ? undefined : Number(raw),
      closing: context.closing,
      pollMs: context.inboxPollMs,
    });
  });

  app.get("/agent/threads", async (c) => {
    const query = readPageQuery(c.req.query(), "threads", readThreadCursor);
    if (!query.ok) return c.json(refused(query), 400);
    const page = await context.store.threads.page(
      c.get("actorId"),
      query.limit,
      query.cursor as ThreadCursor | undefined,
    );
    return c.json({
      threads: page.threads,
      nextCursor: page.next ? encodeCursor("threads", { ...page.next }) : null,
    });
  });

  app.get("/agent/agents", (c) =>
    c.json({
      agents: context.agents.map((agent) => ({
        name: agent.name,
        ask: agent.ask,
        tools: agent.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          // A function decides per call: the tool may ask.
          needsApproval: tool.needsApproval !== undefined && tool.needsApproval !== false,
          ...(agent.editing.has(tool.name)
            ? { editable: agent.editing.get(tool.name)?.map((field) => field.question.id) }
            : {}),
        })),
        ...(agent.intake ? { intake: { ...intakeRequest(agent.intake), when: agent.intake.when } } : {}),
      })),
    }),
  );
}
