import type { ChatRequestOptions, UIMessage } from "ai";

/** The AI SDK request's headers as a plain record. */
export function requestHeaders(options: ChatRequestOptions): Record<string, string> {
  const headers = options.headers;
  if (headers === undefined) return {};
  return headers instanceof Headers ? Object.fromEntries(headers.entries()) : headers;
}

/** The text of a message: its text parts, joined. */
export function textOf(message: UIMessage): string {
  return message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}
