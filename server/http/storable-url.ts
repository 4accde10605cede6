import { createMiddleware } from "hono/factory";
import { findUnstorable } from "../store/json";
import { unstorableError } from "./read-body";

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // Not valid percent-encoded UTF-8: the router keeps such a segment as written, so it is too.
    return segment;
  }
}

/**
 * Refuses (400, naming the part) a request whose decoded path or query holds text the store
 * cannot hold (`%00`), so an id that reaches a statement is one PostgreSQL takes; bodies are
 * checked where they are read (`readJsonBody`). A request's URL is ASCII (the Node server keeps
 * one only when its characters are plain, and encodes the rest, as the URL parser does), so only
 * a percent-escape can decode to such text: a URL without `%` passes unparsed.
 */
export function storableUrlMiddleware() {
  return createMiddleware(async (c, next) => {
    if (!c.req.url.includes("%")) return next();
    const url = new URL(c.req.url);
    const segments = url.pathname.split("/").map(decoded);
    const inPath = findUnstorable(segments.join("/"));
    if (inPath) return c.json({ error: unstorableError("the URL's path", inPath) }, 400);
    for (const [name, value] of url.searchParams) {
      const inName = findUnstorable(name);
      if (inName) return c.json({ error: unstorableError("a query parameter's name", inName) }, 400);
      const inValue = findUnstorable(value);
      if (inValue) return c.json({ error: unstorableError(`the query parameter ${name}`, inValue) }, 400);
    }
    return next();
  });
}
