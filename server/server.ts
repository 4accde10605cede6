import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp, type PrepickApp, type PrepickOptions } from "./app";

/** Where and how the HTTP listener binds. */
export interface ServerOptions extends PrepickOptions {
  /** The port; 0 picks a free one (default 3000). */
  port?: number;
  /**
   * The interface to bind (default 127.0.0.1). Bound to loopback, the server answers only loopback
   * `Host` names and `allowedHosts`.
   */
  host?: string;
}

/** A reference server listening on HTTP. */
export interface PrepickServer extends PrepickApp {
  /** The base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** The port actually bound. */
  port: number;
}

/**
 * Starts the reference server on HTTP; `close()` stops listening, lets requests in flight finish
 * (see {@link PrepickApp.close}), then closes the app and the remaining connections.
 */
export async function createServer(options: ServerOptions): Promise<PrepickServer> {
  const host = options.host ?? "127.0.0.1";
  const prepick = await createApp({ ...options, host });
  let server: ReturnType<typeof serve> | undefined;
  const port = await new Promise<number>((resolve, reject) => {
    server = serve(
      { fetch: prepick.app.fetch, port: options.port ?? 3000, hostname: host },
      (info: AddressInfo) => resolve(info.port),
    );
    server.once("error", reject);
  }).catch(async (error) => {
    await prepick.close();
    throw error;
  });
  const shown = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  const url = `http://${shown.includes(":") ? `[${shown}]` : shown}:${port}`;
  prepick.setOrigin(url);
  return {
    ...prepick,
    url,
    port,
    async close() {
      const listening = server;
      // Stop accepting first, so no request starts once the store is closing; the callback
      // fires when the last connection has ended.
      const stopped = new Promise<void>((resolve) => {
        if (!listening) return resolve();
        listening.close(() => resolve());
      });
      await prepick.close();
      (listening as { closeAllConnections?: () => void } | undefined)?.closeAllConnections?.();
      await stopped;
    },
  };
}
