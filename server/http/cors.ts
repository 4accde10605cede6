import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

/**
 * Reads `PREPICK_CORS_ORIGINS`: origins separated by commas (`http://localhost:5173`). Each must
 * be an origin alone, a scheme and a host with an optional port and nothing after it, since a
 * browser compares the page's origin to it exactly. An empty or missing value allows none.
 */
export function parseCorsOrigins(raw: string | undefined): string[] {
  const origins: string[] = [];
  for (const entry of (raw ?? "").split(",")) {
    const text = entry.trim();
    if (text === "") continue;
    // `new URL` takes `*` as a host letter, so a pattern would be kept as an origin no page has.
    if (text.includes("*")) {
      throw new Error(
        `PREPICK_CORS_ORIGINS lists each origin exactly; a wildcard such as ${JSON.stringify(text)} is not supported: ` +
          "write every origin out (http://app.example.com,http://admin.example.com)",
      );
    }
    let origin: string | undefined;
    try {
      const url = new URL(text);
      if ((url.protocol === "http:" || url.protocol === "https:") && url.origin === text.replace(/\/$/, "")) {
        origin = url.origin;
      }
    } catch {
      // Not a URL at all: reported below.
    }
    if (!origin) {
      throw new Error(
        `PREPICK_CORS_ORIGINS must list origins such as http://localhost:5173 (a scheme and a host, no path), not ${JSON.stringify(text)}`,
      );
    }
    origins.push(origin);
  }
  return origins;
}

/**
 * Lets pages on `origins` call the API from another origin, with their cookies (the actor
 * cookie) and the headers the client sends and reads. A preflight is answered before any actor
 * is required; a request from any other origin gets no CORS headers, so its browser refuses it.
 */
export function corsMiddleware(origins: readonly string[]): MiddlewareHandler {
  return cors({
    origin: [...origins],
    credentials: true,
    allowMethods: ["GET", "POST", "OPTIONS"],
    allowHeaders: ["content-type", "x-actor-id", "last-event-id"],
    exposeHeaders: ["x-run-id", "x-thread-id", "retry-after"],
    maxAge: 600,
  });
}
