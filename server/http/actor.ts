import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { cameOverHttps, requestSite } from "./request-site";

/** The cookie that carries a browser's actor id when no header does. */
export const ACTOR_COOKIE = "prepick_actor";

/** How long the actor cookie lasts: 400 days, the longest browsers keep a cookie. */
export const ACTOR_COOKIE_MAX_AGE = 400 * 24 * 60 * 60;

/** Decides who makes a request; undefined (or an empty id) answers 401. */
export type Authenticate = (request: Request) => string | undefined | Promise<string | undefined>;

/** The Hono variables the actor middleware sets. */
export interface ActorVariables {
  /** Who makes the request. */
  actorId: string;
}

/** How the actor middleware knows who makes a request. */
export interface ActorOptions {
  /** A deployment's own check; when given, neither the header nor the cookie is read. */
  authenticate?: Authenticate | undefined;
  /** Whether `x-actor-id` names the actor (development and tests; default true). */
  trustActorHeader?: boolean | undefined;
  /** The configured CORS origins, whose pages are issued the cookie like the server's own. */
  corsOrigins?: readonly string[] | undefined;
}

const ACTOR_ID = /^[\w.:@-]{1,200}$/;

/** The valid actor cookie the request carries, if any. */
function cookieActor(c: Context): string | undefined {
  const cookie = getCookie(c, ACTOR_COOKIE);
  return cookie !== undefined && ACTOR_ID.test(cookie) ? cookie : undefined;
}

/**
 * How many `prepick_actor` cookies the request carries. A browser sends every cookie of the host
 * whose path matches, and a page on another port of the same host can set one (a cookie is not
 * kept apart by port), with a longer path so it is sent first: two mean someone else set one.
 */
function actorCookieCount(c: Context): number {
  const header = c.req.header("cookie") ?? "";
  let count = 0;
  for (const pair of header.split(";")) {
    if (pair.split("=", 1)[0]?.trim() === ACTOR_COOKIE) count += 1;
  }
  return count;
}

/** The 400 of a request carrying more than one actor cookie: it acts as nobody rather than as the wrong one. */
function twoCookies(c: Context, count: number) {
  return c.json(
    {
      error:
        `The request carries ${count} ${ACTOR_COOKIE} cookies, so this server cannot tell whose it is: ` +
        "a page on another port of this host may have set one. Clear this site's cookies, then reload.",
      field: "cookie",
      value: ACTOR_COOKIE,
    },
    400,
  );
}

/**
 * Sets a new actor cookie on the response: persistent, `HttpOnly`, `SameSite=Lax`, `Path=/`, and
 * `Secure` when the request came over HTTPS. Called after the route ran, since a streaming route
 * returns its own Response, which would drop a header set before.
 */
function issueCookie(c: Context, actorId: string): void {
  setCookie(c, ACTOR_COOKIE, actorId, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    maxAge: ACTOR_COOKIE_MAX_AGE,
    ...(cameOverHttps(c.req.raw) ? { secure: true } : {}),
  });
}

/**
 * Resolves the actor of an `/agent/*` request: a deployment's `authenticate` (an undefined or
 * empty id answers 401, so such callers never share one actor); else `x-actor-id` while it is
 * trusted (development only: it is whatever the client claims); else the `prepick_actor` cookie.
 * Without one, a request from a page the server trusts (its own, or a configured CORS origin's,
 * by `Origin` or `Sec-Fetch-Site`) is issued a new cookie; any other answers 401. The cookie is
 * never issued to a request that carried one, nor to one another site could have sent.
 */
export function actorMiddleware(options: ActorOptions = {}) {
  const { authenticate, trustActorHeader = true, corsOrigins = [] } = options;
  return createMiddleware<{ Variables: ActorVariables }>(async (c, next) => {
    if (authenticate) {
      const actorId = await authenticate(c.req.raw);
      if (typeof actorId !== "string" || actorId.trim() === "") {
        return c.json({ error: "Authentication is required." }, 401);
      }
      c.set("actorId", actorId);
      return next();
    }
    const header = c.req.header("x-actor-id");
    if (header !== undefined) {
      if (!trustActorHeader) {
        return c.json(
          { error: "x-actor-id is turned off on this server (PREPICK_TRUST_ACTOR_HEADER=false)." },
          400,
        );
      }
      if (!ACTOR_ID.test(header)) {
        return c.json({ error: "x-actor-id must be 1 to 200 letters, digits or . _ : @ -" }, 400);
      }
      c.set("actorId", header);
      return next();
    }
    const cookies = actorCookieCount(c);
    if (cookies > 1) return twoCookies(c, cookies);
    const cookie = cookieActor(c);
    if (cookie !== undefined) {
      c.set("actorId", cookie);
      return next();
    }
    const site = requestSite(c.req.raw, corsOrigins).site;
    if (site !== "own" && site !== "allowed") {
      return c.json(
        {
          error:
            `The request names no actor: the ${ACTOR_COOKIE} cookie is issued when a page of this ` +
            "server (or of an origin in PREPICK_CORS_ORIGINS) loads or first calls it.",
        },
        401,
      );
    }
    const issued = `actor-${crypto.randomUUID()}`;
    c.set("actorId", issued);
    await next();
    issueCookie(c, issued);
  });
}

/**
 * Issues the actor cookie where a person's page is first loaded: a successful `GET` of an HTML
 * page of this server, from the address bar or the server's own pages (not a page another site
 * embeds or links to as a subresource), when the request carried no cookie. Never replaces one.
 */
export function pageCookieMiddleware() {
  return createMiddleware(async (c, next) => {
    // Pages are never under /agent/ (its answers are JSON and event streams): reading an answer's
    // headers would turn them into a Headers object, which the Node server then converts back.
    if (c.req.method !== "GET" || c.req.path.startsWith("/agent/")) return next();
    await next();
    if (c.res.status !== 200) return;
    if (!c.res.headers.get("content-type")?.startsWith("text/html")) return;
    if (cookieActor(c) !== undefined || requestSite(c.req.raw, []).site === "foreign") return;
    issueCookie(c, `actor-${crypto.randomUUID()}`);
  });
}
