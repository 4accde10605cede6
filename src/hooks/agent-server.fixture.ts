import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createApp, type Store } from "prepick/server";

/** The agents a test server hosts, as the reference server takes them. */
type Agents = Parameters<typeof createApp>[0]["agents"];

/**
 * The real reference server on a loopback port with an in-memory store and the embedded scripted
 * model; `close()` stops the listener and the app.
 */
export async function startAgentServer(
  agents: Agents,
): Promise<{ url: string; store: Store; close: () => Promise<void> }> {
  const prepick = await createApp({ agents, sweepMs: 200 });
  let server: ReturnType<typeof serve> | undefined;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: prepick.app.fetch, port: 0, hostname: "127.0.0.1" }, (info: AddressInfo) =>
      resolve(info.port),
    );
  });
  return {
    url: `http://127.0.0.1:${port}`,
    store: prepick.store,
    async close() {
      await prepick.close();
      await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
    },
  };
}
