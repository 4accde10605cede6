import { createMiddleware } from "hono/factory";

/** Whether an interface address is a loopback one: what only this machine can reach. */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** A loopback name a browser can only have reached through this machine: no DNS answer makes one. */
function isLoopbackName(hostname: string): boolean {
  return isLoopbackAddress(hostname) || hostname.endsWith(".localhost");
}

/** A `Host` header's name alone: lowercase, without its port or a trailing dot, IPv6 in brackets. */
function hostnameOf(host: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(host.trim());
  return match?.[1]?.toLowerCase().replace(/\.$/, "");
}

/**
 * Reads `PREPICK_ALLOWED_HOSTS`: host names, separated by commas (`app.example.com`), each a name
 * or an address without a scheme, path or port. An empty or missing value lists none.
 */
export function parseAllowedHosts(raw: string | undefined): string[] {
  const hosts: string[] = [];
  for (const entry of (raw ?? "").split(",")) {
    const text = entry.trim();
    if (text === "") continue;
    const name = hostnameOf(text);
    const plain = name !== undefined && /^([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:.]+\]$/.test(name);
    if (!plain || name !== text.toLowerCase().replace(/\.$/, "")) {
      throw new Error(
        `PREPICK_ALLOWED_HOSTS must list host names such as app.example.com (no scheme, port or path), not ${JSON.stringify(text)}`,
      );
    }
    hosts.push(name as string);
  }
  return hosts;
}

/** How many answered `Host` values a server keeps, so that sending many costs no memory. */
const KNOWN_HOSTS = 64;

/** Which `Host` names a server answers. */
export interface HostRule {
  /** Answer loopback names (`localhost`, `*.localhost`, `127.x.x.x`, `[::1]`): the server is bound to loopback. */
  loopback: boolean;
  /** Further names the operator lists (`PREPICK_ALLOWED_HOSTS`), lowercase, without ports. */
  hosts: readonly string[];
}

/**
 * Refuses, with `421 Misdirected Request`, a request whose `Host` is not a name this server
 * answers. A server bound to loopback answers loopback names and the listed hosts only, so a page
 * of another site whose name was made to resolve to 127.0.0.1 (DNS rebinding) reaches nothing:
 * its requests carry the other site's name. Runs first, before anything else reads the request.
 */
export function hostCheck(rule: HostRule) {
  const allowed = new Set(rule.hosts);
  // `Host` values already answered, as sent: a server sees few, so most requests skip the parsing.
  const answers = new Set<string>();
  return createMiddleware(async (c, next) => {
    const header = c.req.header("host");
    if (header !== undefined && answers.has(header)) return next();
    const name = header === undefined ? undefined : hostnameOf(header);
    if (name !== undefined && ((rule.loopback && isLoopbackName(name)) || allowed.has(name))) {
      if (answers.size < KNOWN_HOSTS) answers.add(header as string);
      return next();
    }
    const answered = [...(rule.loopback ? ["localhost", "127.0.0.1", "[::1]"] : []), ...rule.hosts];
    return c.json(
      {
        error:
          `Host ${JSON.stringify(header ?? "")} is not a name this server answers; it answers ` +
          `${answered.join(", ")}. Add the name to PREPICK_ALLOWED_HOSTS to serve it.`,
        field: "Host",
        value: header ?? "",
      },
      421,
    );
  });
}
