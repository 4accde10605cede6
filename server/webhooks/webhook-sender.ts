import type { AgentDefinition } from "../agents/types";
import { isStoreUnavailable } from "../database/store-unavailable";
import { logError } from "../log";
import { WEBHOOKS_CHANNEL } from "../store/channels";
import type { Store } from "../store/store";
import type { DeliveryAttempt, OutboxRow } from "../store/webhook-outbox";
import { signWebhook } from "./sign-webhook";
import type { CheckedEndpoint, WebhookDeliveryOptions } from "./webhook-options";
import { type WebhookLinks, webhookPayload } from "./webhook-payload";

/** What a sender needs. */
export interface WebhookSenderOptions extends WebhookDeliveryOptions {
  store: Store;
  /** This process's name in the outbox's leases. */
  owner: string;
  /** The endpoints this process signs for. */
  endpoints: readonly CheckedEndpoint[];
  /** The agents by name, for a tool's description. */
  agents: ReadonlyMap<string, AgentDefinition>;
  /** Where the payloads' links point. */
  links: WebhookLinks;
}

// The most rows one claim takes; each endpoint's are posted one after another, in order.
const CLAIM_BATCH = 32;
const DEFAULTS = {
  timeoutMs: 10_000,
  retryFirstMs: 5_000,
  retryMaxMs: 3_600_000,
  retentionMs: 7 * 86_400_000,
  pollMs: 5_000,
} as const;
// How often delivered rows past their retention are removed.
const PRUNE_EVERY_MS = 3_600_000;

/** The wait after the `attempts`-th failure: doubling from the first, at most the last, with a little jitter. */
export function retryDelay(attempts: number, firstMs: number, maxMs: number, random = Math.random): number {
  const doubled = firstMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30);
  const capped = Math.min(doubled, maxMs);
  // Up to a tenth less, so endpoints that failed together are not retried all at once.
  return Math.max(1, Math.round(capped * (1 - random() * 0.1)));
}

/**
 * Delivers the outbox's events to this process's endpoints, at least once: it claims due rows
 * under a lease (other processes skip them), posts each, signed, and records the answer, a 2xx
 * as delivered, anything else as failing with a retry after a doubling wait. A row whose sender
 * died is claimed again once its lease runs out, so an event can come twice after a crash, always
 * with the same `webhook-id`. The triggers' NOTIFY wakes it; a slow poll catches retries and lost
 * notifications.
 */
export class WebhookSender {
  private readonly settings: Required<WebhookDeliveryOptions>;
  private readonly urls: string[];
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pruneTimer: ReturnType<typeof setInterval> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  /** @param options See {@link WebhookSenderOptions}. */
  constructor(private readonly options: WebhookSenderOptions) {
    this.settings = {
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      retryFirstMs: options.retryFirstMs ?? DEFAULTS.retryFirstMs,
      retryMaxMs: options.retryMaxMs ?? DEFAULTS.retryMaxMs,
      retentionMs: options.retentionMs ?? DEFAULTS.retentionMs,
      pollMs: options.pollMs ?? DEFAULTS.pollMs,
    };
    this.urls = options.endpoints.map((endpoint) => endpoint.url);
  }

  // Longer than a post may take, so a live sender's rows are never taken from it.
  private get leaseMs(): number {
    return this.settings.timeoutMs * 2 + 5_000;
  }

  /** Listens for new events and delivers what is due. */
  async start(): Promise<void> {
    this.unlisten = await this.options.store.db.listen(WEBHOOKS_CHANNEL, () => this.kick());
    const prune = () =>
      void this.options.store.webhooks.prune(this.settings.retentionMs).catch((error) => {
        if (!this.stopped && !isStoreUnavailable(error)) logError("pruning delivered webhooks failed", error);
      });
    prune();
    this.pruneTimer = setInterval(prune, PRUNE_EVERY_MS);
    this.pruneTimer.unref?.();
    this.kick();
  }

  /**
   * Stops claiming and lets the posts in flight finish (each within the timeout) and be recorded,
   * so a graceful stop sends nothing twice.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pruneTimer);
    await this.unlisten?.().catch(() => undefined);
    await this.running?.catch(() => undefined);
  }

  /** Delivers what is due now; one round at a time, another right after if woken meanwhile. */
  private kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.round()
      .catch((error) => {
        if (!this.stopped && !isStoreUnavailable(error)) logError("delivering webhooks failed", error);
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        } else void this.schedule();
      });
  }

  private async round(): Promise<void> {
    for (;;) {
      this.again = false;
      const rows = await this.options.store.webhooks.claim(
        this.options.owner,
        this.urls,
        CLAIM_BATCH,
        this.leaseMs,
      );
      const byEndpoint = new Map<string, OutboxRow[]>();
      for (const row of rows) byEndpoint.set(row.endpoint, [...(byEndpoint.get(row.endpoint) ?? []), row]);
      await Promise.all(
        [...byEndpoint.values()].map(async (queue) => {
          for (const row of queue) {
            if (this.stopped) return;
            await this.options.store.webhooks.record(await this.post(row));
          }
        }),
      );
      if (this.stopped || rows.length < CLAIM_BATCH) return;
    }
  }

  /** Waits for the next due row (a retry, or a lease another process let lapse), the poll at most. */
  private async schedule(): Promise<void> {
    if (this.stopped) return;
    let wait: number = this.settings.pollMs;
    try {
      const due = await this.options.store.webhooks.nextDue(this.urls);
      if (due) wait = Math.min(wait, Math.max(due.getTime() - Date.now(), 0) + 10);
    } catch {
      // The poll will try again.
    }
    if (this.stopped || this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), wait);
    this.timer.unref?.();
  }

  /** Posts one event, signed for its endpoint, and says how it went. */
  private async post(row: OutboxRow): Promise<DeliveryAttempt> {
    const endpoint = this.options.endpoints.find((candidate) => candidate.url === row.endpoint);
    const attempt = { eventId: row.eventId, endpoint: row.endpoint };
    const failed = (error: string, status?: number): DeliveryAttempt => ({
      ...attempt,
      delivered: false,
      error,
      ...(status !== undefined ? { status } : {}),
      retryInMs: retryDelay(row.attempts + 1, this.settings.retryFirstMs, this.settings.retryMaxMs),
    });
    if (!endpoint) return failed("This process has no secret for the endpoint.");
    const body = JSON.stringify(webhookPayload(row, this.options.agents, this.options.links));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error("timeout")), this.settings.timeoutMs);
    try {
      const response = await fetch(endpoint.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "Prepick-Webhooks/1",
          ...signWebhook(endpoint.key, row.eventId, body),
        },
        body,
        // A redirect is the endpoint's answer, not a place to send the event's data.
        redirect: "manual",
        signal: controller.signal,
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 200 && response.status < 300) {
        return { ...attempt, delivered: true, status: response.status };
      }
      return failed(`The endpoint answered ${response.status}.`, response.status);
    } catch (error) {
      return failed(
        controller.signal.aborted
          ? `The endpoint did not answer within ${this.settings.timeoutMs} ms.`
          : `The endpoint could not be reached: ${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
