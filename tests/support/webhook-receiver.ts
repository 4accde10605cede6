import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "svix";

/** One post the receiver took, its signature verified with svix. */
export interface ReceivedWebhook {
  /** `webhook-id`. */
  id: string;
  /** The payload's `type`. */
  type: string;
  /** The verified payload. */
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  /** The status the receiver answered. */
  status: number;
}

/** A webhook endpoint on loopback that verifies every post with svix's `Webhook.verify`. */
export interface WebhookReceiver {
  /** Its URL. */
  url: string;
  /** The secret it verifies with, `whsec_…`. */
  secret: string;
  /** The posts it took with a valid signature and answered 2xx, in order, repeats included. */
  delivered: ReceivedWebhook[];
  /** Every post with a valid signature, whatever it answered. */
  attempts: ReceivedWebhook[];
  /** Posts whose signature svix refused: any is a failure. */
  refused: string[];
  /** Decides the status of each verified post (200 by default). */
  answer: (webhook: ReceivedWebhook) => number | Promise<number>;
  /** Stops listening. */
  close(): Promise<void>;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}

/** Starts a receiver on 127.0.0.1 with a fresh secret. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const verifier = new Webhook(secret);
  const receiver: WebhookReceiver = {
    url: "",
    secret,
    delivered: [],
    attempts: [],
    refused: [],
    answer: () => 200,
    close: async () => undefined,
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let payload: ReceivedWebhook["payload"];
      try {
        // Throws unless the signature, the id and a timestamp within five minutes check out.
        verifier.verify(body, {
          "webhook-id": headerValue(request.headers, "webhook-id"),
          "webhook-timestamp": headerValue(request.headers, "webhook-timestamp"),
          "webhook-signature": headerValue(request.headers, "webhook-signature"),
        });
        payload = JSON.parse(body) as ReceivedWebhook["payload"];
      } catch (error) {
        receiver.refused.push(`${headerValue(request.headers, "webhook-id")}: ${String(error)}`);
        response.writeHead(400).end();
        return;
      }
      const webhook: ReceivedWebhook = {
        id: headerValue(request.headers, "webhook-id"),
        type: payload.type,
        payload,
        status: 0,
      };
      webhook.status = await receiver.answer(webhook);
      receiver.attempts.push(webhook);
      if (webhook.status >= 200 && webhook.status < 300) receiver.delivered.push(webhook);
      response.writeHead(webhook.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** How many times each id was delivered, for the ids delivered more than once. */
export function repeats(received: readonly ReceivedWebhook[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { id } of received) counts.set(id, (counts.get(id) ?? 0) + 1);
  return new Map([...counts].filter(([, count]) => count > 1));
}
