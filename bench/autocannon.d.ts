// autocannon ships no types; this covers the part the throughput benchmark uses.
declare module "autocannon" {
  /** One request of autocannon's request pipeline. */
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: Request) => Request;
  }
  /** What a finished run reports. */
  interface Result {
    requests: { average: number; total: number };
    duration: number;
    non2xx: number;
    errors: number;
    timeouts: number;
    "2xx": number;
  }
  /** Options of one run. */
  interface Options {
    url: string;
    connections?: number;
    amount?: number;
    requests?: Request[];
    headers?: Record<string, string>;
    method?: string;
  }
  /** A running job: its result when awaited, and its events meanwhile. */
  interface Instance extends Promise<Result> {
    on(event: "response", listener: (client: unknown, statusCode: number) => void): Instance;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
