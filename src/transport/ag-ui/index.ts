export {
  AgUiChatTransport,
  type AgUiChatTransportOptions,
  type AgUiThreadStorage,
} from "./ag-ui-chat-transport";
export { type AgUiThreadFold, AgUiToolCallClient } from "./ag-ui-tool-call-client";
export {
  type AgUiFoldResult,
  type AgUiFoldState,
  everyInterruptDecided,
  foldAgUiEvent,
  type InterruptDecision,
  initialAgUiFold,
  rejectionReason,
  type StreamedToolCall,
  settleInterrupts,
} from "./fold-ag-ui-events";
export { type HydratedAgUiThread, hydrateAgUiThread, type SettledInterruptSet } from "./hydrate-ag-ui-thread";
export {
  type ApprovalInterrupt,
  approvalInput,
  describeExpiry,
  expiryOf,
  type InterruptSet,
  interruptRequest,
  PREPICK_METADATA_KEY,
  type QuestionInterrupt,
  readInterruptSet,
  resumePayload,
} from "./interrupt-set";
