/**
 * Where a request comes from, as far as a browser tells: `own` (a page of this server, or the
 * person typing the address), `allowed` (a page of a configured CORS origin), `foreign` (any
 * other page: a cross-site or same-site form, link, image or script), or `unknown` (no `Origin`
 * and no `Sec-Fetch-Site`: not a browser, such as curl or a server calling the API).
 */
export type RequestSite = "own" | "allowed" | "foreign" | "unknown";

/** What {@link requestSite} found, with the header that decided it (for a refusal's message). */
export interface SiteVerdict {
  /** Where the request comes from. */
  site: RequestSite;
  /** The header and value that decided it, e.g. `Origin "http://evil.example"`. */
  evidence: string;
}

/**
 * Classifies a request by its `Sec-Fetch-Site` and `Origin` headers, in the order Go's
 * `http.CrossOriginProtection` reads them: a configured origin is allowed whatever the fetch
 * metadata says; `Sec-Fetch-Site: same-origin` or `none` is the server's own; any other
 * `Sec-Fetch-Site` is foreign. Without fetch metadata (older browsers), an `Origin` whose host is
 * the request's `Host` is the server's own (the scheme is left out of the comparison, so a
 * TLS-terminating proxy in front does not make the server's own pages foreign).
 */
export function requestSite(request: Request, allowedOrigins: readonly string[]): SiteVerdict {
  const origin = request.headers.get("origin");
  if (origin !== null && allowedOrigins.includes(origin)) {
    return { site: "allowed", evidence: `Origin ${JSON.stringify(origin)}` };
  }
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite !== null) {
    const site = fetchSite === "same-origin" || fetchSite === "none" ? "own" : "foreign";
    const evidence =
      origin !== null ? `Origin ${JSON.stringify(origin)}` : `Sec-Fetch-Site ${JSON.stringify(fetchSite)}`;
    return { site, evidence };
  }
  if (origin === null) return { site: "unknown", evidence: "no Origin" };
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    // `Origin: null` (a sandboxed or file page) and anything unreadable are foreign.
  }
  const own = host !== undefined && host === request.headers.get("host");
  return { site: own ? "own" : "foreign", evidence: `Origin ${JSON.stringify(origin)}` };
}

/** Whether a request came over HTTPS: its own URL, or `X-Forwarded-Proto: https` from a proxy in front. */
export function cameOverHttps(request: Request): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded === "https";
}
