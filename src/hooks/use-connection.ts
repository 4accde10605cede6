"use client";

import { useEffect, useState } from "react";
import type { PendingCallsStatus } from "./pending-calls-store";

/**
 * Whether the page can reach the server, as a person should hear it: `online`; `offline` while
 * the browser says it has no network or the inbox feed is cut and being opened again; `back` for
 * a moment once it is reachable again (then `online`), so a page can say so.
 */
export type ConnectionState = "online" | "offline" | "back";

/** How long `back` lasts before it reads `online` again. */
export const CONNECTION_BACK_MS = 5_000;

function browserOnline(): boolean {
  return typeof navigator === "undefined" || navigator.onLine !== false;
}

/**
 * Where the connection to the server stands, from the one connection a page keeps open while the
 * person reads (the inbox feed, `usePendingCalls().status`) and the browser's own `online` and
 * `offline` events, so a person learns it is gone before they act, not from a failed answer.
 * A feed still `connecting` (the page's first connection) is not counted as lost.
 */
export function useConnection(feed: PendingCallsStatus | undefined): ConnectionState {
  const [online, setOnline] = useState(browserOnline);
  useEffect(() => {
    const update = () => setOnline(browserOnline());
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  const lost = !online || feed === "reconnecting";
  const [state, setState] = useState<ConnectionState>(lost ? "offline" : "online");
  if (lost && state !== "offline") setState("offline");
  if (!lost && state === "offline") setState("back");
  useEffect(() => {
    if (state !== "back") return;
    const timer = setTimeout(() => setState("online"), CONNECTION_BACK_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return state;
}
