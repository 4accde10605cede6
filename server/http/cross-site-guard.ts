import { createMiddleware } from "hono/factory";
import { isJsonType } from "./read-body";
import { requestSite } from "./request-site";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a state-changing request another site's page could send, before it reaches any route
 * (a 404 included) or the actor check, so it can neither act nor be issued an actor cookie:
 * - `403` when its `Origin` (or `Sec-Fetch-Site`) is neither this server's own nor one of
 *   `origins` (the configured CORS origins);
 * - `415` when it is not sent as JSON (`content-type: application/json`). A page can send JSON
 *   to another origin only after a CORS preflight, which only `origins` pass, while a plain HTML
 *   form (url-encoded, multipart or text/plain) needs none: requiring JSON keeps such a form from
 *   acting even where the browser sends no `Origin`.
 * Reads (`GET`, `HEAD`, `OPTIONS`) change nothing and pass.
 */
export function crossSiteGuard(origins: readonly string[]) {
  return createMiddleware(async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const verdict = requestSite(c.req.raw, origins);
    if (verdict.site === "foreign") {
      return c.json(
        {
          error:
            `${c.req.method} ${c.req.path} must come from this server's own pages or an origin in ` +
            `PREPICK_CORS_ORIGINS, not from ${verdict.evidence}.`,
        },
        403,
      );
    }
    const type = c.req.header("content-type");
    if (!isJsonType(type)) {
      return c.json(
        {
          error: `${c.req.method} ${c.req.path} must be sent with content-type: application/json, not ${JSON.stringify(type?.split(";")[0]?.trim() || "none")}.`,
        },
        415,
      );
    }
    return next();
  });
}
