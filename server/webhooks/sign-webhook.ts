import { createHmac } from "node:crypto";

/**
 * The headers of one Standard Webhooks post: `webhook-id` (the event's id, the same on every
 * attempt, for the receiver to drop a repeat), `webhook-timestamp` (seconds since the epoch, of
 * this attempt) and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of
 * `<id>.<timestamp>.<body>` under the secret's bytes), which `svix`'s and `standardwebhooks`'
 * `Webhook.verify` check.
 */
export function signWebhook(
  key: Uint8Array,
  eventId: string,
  body: string,
  now: Date = new Date(),
): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = createHmac("sha256", key).update(`${eventId}.${timestamp}.${body}`).digest("base64");
  return {
    "webhook-id": eventId,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${signature}`,
  };
}
