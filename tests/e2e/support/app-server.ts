import { readFile } from "node:fs/promises";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, sep } from "node:path";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

/** A built app served on loopback, with `/agent/*` passed through to a Prepick server. */
export interface AppServer {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Stops the server and drops open streams. */
  close(): Promise<void>;
}

/**
 * Serves the static build in `distDir` (unknown paths get `index.html`, as a single-page app host
 * does) and proxies `/agent/*` to `agentOrigin`, streaming the answers, so the page talks to the
 * agent server on its own origin the way a deployment behind one host does.
 */
export async function serveApp(distDir: string, agentOrigin: string, port = 0): Promise<AppServer> {
  const target = new URL(agentOrigin);
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (path.startsWith("/agent/")) {
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, host: target.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on("error", (error) => {
        if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
        response.end(`The agent server could not be reached: ${error.message}`);
      });
      request.pipe(upstream);
      return;
    }
    const file = normalize(join(distDir, decodeURIComponent(path)));
    const inside = file.startsWith(distDir + sep);
    const send = (body: Buffer, type: string) => {
      response.writeHead(200, { "content-type": type });
      response.end(body);
    };
    readFile(inside && extname(file) !== "" ? file : join(distDir, "index.html")).then(
      (body) => send(body, CONTENT_TYPES[extname(file)] ?? "text/html; charset=utf-8"),
      () => {
        response.writeHead(404, { "content-type": "text/plain" });
        response.end(`No file for ${path}`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A loopback port free right now, for a server whose origin must be known before it starts. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
