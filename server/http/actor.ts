import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";

/** The cookie that carries a browser's actor id when no header does. */
export const ACTOR_COOKIE = "prepick_actor";

/** Decides who makes a request; undefined answers 401. */
export type Authenticate = (request: Request) => string | undefined | Promise<string | undefined>;

/** The Hono variables the actor middleware sets. */
export interface ActorVariables {
  /** Who makes the request. */
  actorId: string;
}

const ACTOR_ID = /^[\w.:@-]{1,200}$/;

/**
 * Resolves the actor: a deployment's `authenticate`, else the `x-actor-id` header, else the
 * `prepick_actor` cookie, issued (HttpOnly, SameSite=Lax) on the first request without one.
 */
export function actorMiddleware(authenticate?: Authenticate) {
  return createMiddleware<{ Variables: ActorVariables }>(async (c, next) => {
    if (authenticate) {
      const actorId = await authenticate(c.req.raw);
      if (actorId === undefined) return c.json({ error: "Authentication is required." }, 401);
      c.set("actorId", actorId);
      return next();
    }
    const header = c.req.header("x-actor-id");
    if (header !== undefined) {
      if (!ACTOR_ID.test(header)) {
        return c.json({ error: "x-actor-id must be 1 to 200 letters, digits or . _ : @ -" }, 400);
      }
      c.set("actorId", header);
      return next();
    }
    const cookie = getCookie(c, ACTOR_COOKIE);
    if (cookie !== undefined && ACTOR_ID.test(cookie)) {
      c.set("actorId", cookie);
      return next();
    }
    const issued = `actor-${crypto.randomUUID()}`;
    c.set("actorId", issued);
    await next();
    // After the route: a streaming route returns its own Response, which would drop a header set before.
    setCookie(c, ACTOR_COOKIE, issued, { httpOnly: true, sameSite: "Lax", path: "/" });
  });
}
