import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize, sep } from "node:path";

/** One request the server answered, for diagnosing what the CLI fetched. */
export interface ServedRequest {
  /** The request path. */
  path: string;
  /** The status the server answered with. */
  status: number;
}

/** A loopback HTTP server that stands in for both registries the shadcn CLI talks to. */
export interface RegistryServer {
  /** Base URL of our registry: items are at `${prepickUrl}/{name}.json`. */
  prepickUrl: string;
  /** Base URL of the stand-in for shadcn's home registry, for the `REGISTRY_URL` variable. */
  shadcnUrl: string;
  /** Every request answered so far, in order. */
  requests: ServedRequest[];
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Serves `prepickDir` at `/r/` (as the reference server does) and `shadcnDir` at `/shadcn/r/`, on
 * 127.0.0.1 with a free port. Anything else, or a path that escapes its folder, is a 404.
 */
export async function startRegistryServer(prepickDir: string, shadcnDir: string): Promise<RegistryServer> {
  const mounts: [prefix: string, folder: string][] = [
    ["/shadcn/r/", shadcnDir],
    ["/r/", prepickDir],
  ];
  const requests: ServedRequest[] = [];
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const answer = (status: number, body: string | Buffer) => {
      requests.push({ path, status });
      response.writeHead(status, { "content-type": "application/json" });
      response.end(body);
    };
    const mount = mounts.find(([prefix]) => path.startsWith(prefix));
    if (!mount) return answer(404, JSON.stringify({ error: `nothing is served at ${path}` }));
    const [prefix, folder] = mount;
    const file = normalize(join(folder, decodeURIComponent(path.slice(prefix.length))));
    if (!file.startsWith(folder + sep))
      return answer(404, JSON.stringify({ error: `${path} leaves ${prefix}` }));
    try {
      answer(200, await readFile(file));
    } catch {
      answer(404, JSON.stringify({ error: `no file for ${path}` }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    prepickUrl: `${origin}/r`,
    shadcnUrl: `${origin}/shadcn/r`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
