import { request } from "node:http";
import { Readable } from "node:stream";

/**
 * Makes one HTTP request on a connection of its own (no pooling) and answers a fetch Response
 * whose body is that socket's data: cancelling the body destroys the socket, which is exactly
 * what a dropped network connection looks like to the server.
 */
export function socketStream(
  url: string,
  {
    method = "GET",
    headers = {},
    body,
  }: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers, agent: false }, (incoming) => {
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (typeof value === "string") responseHeaders.set(name, value);
      }
      resolve(
        new Response(Readable.toWeb(incoming) as ReadableStream<Uint8Array>, {
          status: incoming.statusCode ?? 0,
          headers: responseHeaders,
        }),
      );
    });
    outgoing.setTimeout(30_000, () => outgoing.destroy(new Error(`${method} ${url} timed out`)));
    outgoing.once("error", reject);
    outgoing.end(body);
  });
}
