/**
 * The events a webhook endpoint can take:
 * - `call.waiting`: a question set or an approval started waiting for a person;
 * - `call.settled`: it stopped waiting: answered, skipped, approved, rejected, cancelled with its
 *   run, or expired with its run's deadline (the payload's `outcome` says which);
 * - `run.finished`, `run.failed`, `run.cancelled`: a run ended (cancelled includes expired).
 */
export const WEBHOOK_EVENTS = [
  "call.waiting",
  "call.settled",
  "run.finished",
  "run.failed",
  "run.cancelled",
] as const;

/** One of {@link WEBHOOK_EVENTS}. */
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** The events an endpoint takes when its configuration names none. */
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEventType[] = ["call.waiting", "call.settled"];

/** One endpoint that is told of events, signed per Standard Webhooks. */
export interface WebhookEndpoint {
  /** Where events are posted: an `http:` or `https:` URL; one endpoint per URL. */
  url: string;
  /**
   * The signing secret, as Standard Webhooks writes it: `whsec_` and 24 to 64 random bytes in
   * base64 (`whsec_$(openssl rand -base64 32)`). The receiver verifies with the same string.
   */
  secret: string;
  /** The events it takes (default `call.waiting` and `call.settled`). */
  events?: readonly WebhookEventType[];
}

/** How events are delivered, for every endpoint. */
export interface WebhookDeliveryOptions {
  /** How long an endpoint has to answer one post, in ms (default 10 000). */
  timeoutMs?: number;
  /** The wait before the first retry, in ms (default 5 000); it doubles with each failure. */
  retryFirstMs?: number;
  /** The longest wait between two attempts, in ms (default 3 600 000: an hour). Attempts never stop. */
  retryMaxMs?: number;
  /** How long delivered events stay in the outbox, in ms (default 7 days); undelivered ones stay. */
  retentionMs?: number;
  /** How often each process looks for due events without a notification, in ms (default 5 000). */
  pollMs?: number;
}

/** An endpoint checked: its URL, the secret's bytes and its events. */
export interface CheckedEndpoint {
  url: string;
  key: Uint8Array;
  events: readonly WebhookEventType[];
}

const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/** Checks the configured endpoints; throws a sentence naming the endpoint, the field, the rule and the value. */
export function checkWebhooks(endpoints: readonly WebhookEndpoint[]): CheckedEndpoint[] {
  const seen = new Set<string>();
  return endpoints.map((endpoint, index) => {
    const where = `webhooks[${index}]`;
    let url: URL;
    try {
      url = new URL(endpoint.url);
    } catch {
      throw new Error(
        `${where}.url must be an absolute http: or https: URL, not ${JSON.stringify(endpoint.url)}`,
      );
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new Error(
        `${where}.url must be an absolute http: or https: URL, not ${JSON.stringify(endpoint.url)}`,
      );
    }
    if (seen.has(endpoint.url))
      throw new Error(`${where}.url ${JSON.stringify(endpoint.url)} is listed twice`);
    seen.add(endpoint.url);
    const match = SECRET.exec(endpoint.secret ?? "");
    const key = match?.[1] ? Buffer.from(match[1], "base64") : undefined;
    if (!key || key.length < 24 || key.length > 64) {
      throw new Error(
        `${where}.secret must be whsec_ followed by 24 to 64 bytes in base64 (Standard Webhooks), ` +
          `e.g. whsec_$(openssl rand -base64 32); got ${endpoint.secret ? "another value" : "none"}`,
      );
    }
    const events = endpoint.events ?? DEFAULT_WEBHOOK_EVENTS;
    if (events.length === 0) throw new Error(`${where}.events must name at least one event`);
    for (const event of events) {
      if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) {
        throw new Error(
          `${where}.events holds ${JSON.stringify(event)}, which is not one of ${WEBHOOK_EVENTS.join(", ")}`,
        );
      }
    }
    return { url: endpoint.url, key: new Uint8Array(key), events: [...new Set(events)] };
  });
}

/**
 * The endpoint the environment configures (`PREPICK_WEBHOOK_URL`, `PREPICK_WEBHOOK_SECRET`, and
 * `PREPICK_WEBHOOK_EVENTS` as a comma-separated list), or none when the URL is unset.
 */
export function webhooksFromEnv(env: NodeJS.ProcessEnv): WebhookEndpoint[] {
  const url = env.PREPICK_WEBHOOK_URL?.trim();
  if (!url) return [];
  const events = env.PREPICK_WEBHOOK_EVENTS?.split(",")
    .map((event) => event.trim())
    .filter((event) => event !== "");
  return [
    {
      url,
      secret: env.PREPICK_WEBHOOK_SECRET?.trim() ?? "",
      ...(events && events.length > 0 ? { events: events as WebhookEventType[] } : {}),
    },
  ];
}
