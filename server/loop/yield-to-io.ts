/**
 * Lets the event loop handle pending I/O before a run goes on. An embedded store answers in this
 * thread and its promises settle without ever reaching the I/O phase, so a run that goes from one
 * statement to the next would hold back every HTTP request and stream until it parks or ends.
 */
export function yieldToIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
