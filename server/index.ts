// The `prepick/server` entry: the reference server as a library.
export * from "./agents/index";
export { createApp, type PrepickApp, type PrepickOptions, type WebhookDeliveries } from "./app";
export type { Database, Queryable } from "./database/database";
export { type OpenDatabaseOptions, openDatabase } from "./database/open-database";
export { ACTOR_COOKIE, type Authenticate } from "./http/actor";
export { JournalMismatchError } from "./loop/journal";
export * from "./model/index";
export { createServer, type PrepickServer, type ServerOptions } from "./server";
export type {
  CheckpointRow,
  RunRow,
  RunStatus,
  ThreadRow,
  ToolCallRow,
  ToolCallStatus,
  UserMessage,
} from "./store/rows";
export { createStore, Store } from "./store/store";
export type { DeliveryStatus, OutboxRow } from "./store/webhook-outbox";
export {
  WEBHOOK_EVENTS,
  type WebhookDeliveryOptions,
  type WebhookEndpoint,
  type WebhookEventType,
} from "./webhooks/webhook-options";
export type { CallEventData, RunEventData, WebhookAsked, WebhookPayload } from "./webhooks/webhook-payload";
