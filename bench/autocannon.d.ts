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
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
