import { type ComponentProps, lazy, Suspense } from "react";
import { AgentChat } from "../registry/blocks/agent-chat/agent-chat";

/**
 * Which wire the demo's chats speak: the Prepick server's own (`POST /agent/chat`), or AG-UI
 * (`POST /agent/ag-ui`) with `?protocol=ag-ui`, so the page shows the same agents, questions and
 * approvals reaching an AG-UI client. Read once, as the page loads.
 */
const protocol =
  new URLSearchParams(window.location.search).get("protocol") === "ag-ui" ? "ag-ui" : "prepick";

type ChatProps = ComponentProps<typeof AgentChat>;

/** The AG-UI page and its client, loaded only for `?protocol=ag-ui`. */
const AgUiChat = lazy(() => import("./ag-ui-chat").then((module) => ({ default: module.AgUiChat })));

/** The demo's chat: the registry's `AgentChat` block, or the same page over AG-UI. */
export function DemoChat(props: ChatProps) {
  return protocol === "ag-ui" ? (
    <Suspense fallback={null}>
      <AgUiChat {...props} />
    </Suspense>
  ) : (
    <AgentChat {...props} />
  );
}
