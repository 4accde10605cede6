// The `prepick/transport/ag-ui` entry: the transport for any AG-UI agent. How its events fold and
// its interrupts read stays inside; `tests/install/package-exports.test.ts` holds the list.
export {
  AgUiChatTransport,
  type AgUiChatTransportOptions,
  type AgUiThreadStorage,
} from "./ag-ui-chat-transport";
