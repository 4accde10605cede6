import { readFile, stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
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

/** Reads a file inside `root`, refusing paths that climb out of it. */
async function fileIn(root: string, path: string): Promise<Response | undefined> {
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
    const body = await readFile(target);
    return new Response(body, {
      headers: { ...STATIC_HEADERS, "content-type": TYPES[extname(target)] ?? "application/octet-stream" },
    });
  } catch {
    return undefined;
  }
}

/** Where the static folders are. */
export interface StaticFolders {
  /** The built demo page (`dist/demo`). */
  demoDir: string;
  /** The registry JSON (`public/r`). */
  registryDir: string;
}

/** `GET /` and its assets from the demo folder, `GET /r/*` from the registry folder. */
export function staticRoutes(app: AgentApp, folders: StaticFolders): void {
  app.get("/r/*", async (c) => {
    const found = await fileIn(folders.registryDir, c.req.path.slice("/r/".length));
    return found ?? c.json({ error: `No registry item at ${c.req.path}.` }, 404, STATIC_HEADERS);
  });
  app.get("/*", async (c, next) => {
    if (c.req.path.startsWith("/agent/")) return next();
    const path = c.req.path === "/" ? "index.html" : c.req.path.slice(1);
    const found = await fileIn(folders.demoDir, path);
    if (found) return found;
    if (c.req.path === "/") return c.html(NOT_BUILT, 200, STATIC_HEADERS);
    return next();
  });
}
