import { readFile, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import { CompressedBodies, chooseEncoding, compressible } from "./compressed-body";
import type { AgentApp } from "./context";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * Sent with every page, asset and registry file: the browser runs only the page's own scripts
 * and styles (no inline script, no other origin), talks only to this origin, and shows the page
 * in a frame only on this origin; `nosniff` keeps a JSON or text file from being run as a script.
 */
export const STATIC_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "content-security-policy": [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join("; "),
};

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Prepick</title></head>
<body><h1>Prepick</h1><p>The demo page is not built. The server is running:
see <a href="/agent/agents">/agent/agents</a> for the agents it hosts.</p></body></html>`;

/**
 * How long a browser keeps a file. The demo's built assets (`/assets/…`) carry a hash of their
 * content in their name, so a new build is a new name: they are kept a year and never revalidated.
 * Everything else (the page, the registry JSON) keeps its name across builds, so the browser asks
 * again each time and gets a 304 while its copy is current.
 */
function cacheControl(path: string): string {
  return path.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache";
}

/** What a static file is served from: where it lives, and its request's own headers. */
interface StaticRequest {
  /** The folder it must be inside. */
  root: string;
  /** Its path inside `root`, as requested (still URL-encoded). */
  path: string;
  /** The request's `Accept-Encoding`. */
  acceptEncoding: string | undefined;
  /** The request's `If-None-Match`. */
  ifNoneMatch: string | undefined;
}

const compressed = new CompressedBodies();

/**
 * Reads a file inside `root`, refusing paths that climb out of it. Text is sent compressed when the
 * browser takes it (brotli, else gzip); every file carries its cache lifetime and an ETag.
 */
async function fileIn({
  root,
  path,
  acceptEncoding,
  ifNoneMatch,
}: StaticRequest): Promise<Response | undefined> {
  const base = resolve(root);
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  const target = resolve(join(base, decoded));
  if (target !== base && !target.startsWith(base + sep)) return undefined;
  try {
    const info = await stat(target);
    if (!info.isFile()) return undefined;
    const type = TYPES[extname(target)] ?? "application/octet-stream";
    const version = `${info.size.toString(36)}-${Math.trunc(info.mtimeMs).toString(36)}`;
    const encoding = compressible(type, info.size) ? chooseEncoding(acceptEncoding) : undefined;
    // One ETag per encoding: a cache holding the gzip copy must not take it for the brotli one.
    const etag = `W/"${version}${encoding ? `-${encoding}` : ""}"`;
    const headers: Record<string, string> = {
      ...STATIC_HEADERS,
      "content-type": type,
      "cache-control": cacheControl(decoded),
      etag,
      vary: "accept-encoding",
    };
    if (ifNoneMatch?.split(",").some((tag) => tag.trim() === etag)) {
      return new Response(null, { status: 304, headers });
    }
    const body = await readFile(target);
    if (!encoding) return new Response(body, { headers });
    const encoded = await compressed.get(target, info.mtimeMs, version, body, encoding);
    return new Response(encoded, { headers: { ...headers, "content-encoding": encoding } });
  } catch {
    return undefined;
  }
}

/** The path of one call's page: `/answer/` and the call's id. */
const DEEP_LINK = /^\/answer\/[^/]+$/;

/** Where the static folders are. */
export interface StaticFolders {
  /** The built demo page (`dist/demo`). */
  demoDir: string;
  /** The registry JSON (`public/r`). */
  registryDir: string;
}

/** `GET /` and its assets from the demo folder, `GET /r/*` from the registry folder. */
export function staticRoutes(app: AgentApp, folders: StaticFolders): void {
  const request = (root: string, path: string, c: { req: { header(name: string): string | undefined } }) => ({
    root,
    path,
    acceptEncoding: c.req.header("accept-encoding"),
    ifNoneMatch: c.req.header("if-none-match"),
  });
  app.get("/r/*", async (c) => {
    const found = await fileIn(request(folders.registryDir, c.req.path.slice("/r/".length), c));
    return found ?? c.json({ error: `No registry item at ${c.req.path}.` }, 404, STATIC_HEADERS);
  });
  app.get("/*", async (c, next) => {
    if (c.req.path.startsWith("/agent/")) return next();
    // A call's deep link (`/answer/<callId>`, as webhooks link it) is the page, which opens the call.
    const page = c.req.path === "/" || DEEP_LINK.test(c.req.path);
    const path = page ? "index.html" : c.req.path.slice(1);
    const found = await fileIn(request(folders.demoDir, path, c));
    if (found) return found;
    if (page) return c.html(NOT_BUILT, 200, STATIC_HEADERS);
    return next();
  });
}
