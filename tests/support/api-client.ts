/** A response read whole: status, headers and the parsed JSON body (or the text, if not JSON). */
export interface ApiResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Reads a response's body as JSON when it is JSON, else as text. */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Talks to one server as one actor (`x-actor-id`), with every request bounded in time. */
export function apiClient(baseUrl: string, actorId: string, timeoutMs = 15_000) {
  const headers = (extra?: Record<string, string>) => ({ "x-actor-id": actorId, ...extra });
  const call = async (path: string, init: RequestInit): Promise<ApiResponse> => {
    try {
      const response = await fetch(new URL(path, baseUrl), {
        ...init,
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: response.status, headers: response.headers, body: await readBody(response) };
    } catch (error) {
      if (!(error instanceof Error && error.name === "TimeoutError")) throw error;
      throw new Error(`${init.method ?? "GET"} ${path} got no whole answer within ${timeoutMs} ms`, {
        cause: error,
      });
    }
  };
  return {
    /** GET a JSON endpoint. */
    get: (path: string) => call(path, { headers: headers() }),
    /** POST a JSON body (serialised here unless already a string). */
    post: (path: string, body: unknown, contentType = "application/json") =>
      call(path, {
        method: "POST",
        headers: headers({ "content-type": contentType }),
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    /** POST without reading the body: for the chat endpoint's event stream. */
    postStream: (path: string, body: unknown) =>
      fetch(new URL(path, baseUrl), {
        method: "POST",
        headers: headers({ "content-type": "application/json", accept: "text/event-stream" }),
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      }),
    /** GET an event stream. */
    getStream: (path: string, streamTimeoutMs = timeoutMs) =>
      fetch(new URL(path, baseUrl), {
        headers: headers({ accept: "text/event-stream" }),
        signal: AbortSignal.timeout(streamTimeoutMs),
      }),
  };
}

/** One actor's client, as {@link apiClient} returns it. */
export type ApiClient = ReturnType<typeof apiClient>;
