import type { CanUseTool } from "@anthropic-ai/claude-agent-sdk";
import {
  CLAUDE_ASK_USER_QUESTION,
  claudeQuestionsToRequest,
  outcomeToClaudePermissionResult,
} from "prepick/adapters";
import type { ElicitationOutcome } from "prepick/core";
import { createElicitation, type ElicitationBlock } from "prepick/hooks";

/**
 * A `canUseTool` that asks AskUserQuestion's questions through an elicitation block. `show` puts
 * the block in front of the person (render it with `<ChatElicitation>`); every other tool goes to
 * `otherTools`, your own permission check.
 */
export function askThroughPrepick(
  show: (block: ElicitationBlock) => void,
  otherTools: CanUseTool,
): CanUseTool {
  return async (toolName, input, options) => {
    if (toolName !== CLAUDE_ASK_USER_QUESTION) return otherTools(toolName, input, options);
    const parsed = claudeQuestionsToRequest(input);
    if (!parsed.success) {
      return { behavior: "deny", message: parsed.issues.map((issue) => issue.message).join("\n") };
    }
    // The block settles in the page (Confirm or Skip); stopping the query dismisses it.
    const block = createElicitation({ id: options.toolUseID, request: parsed.request });
    const outcome = await new Promise<ElicitationOutcome | undefined>((resolve) => {
      const settle = () => {
        const snapshot = block.getSnapshot();
        if (snapshot.phase === "pending") return;
        unsubscribe();
        resolve(snapshot.settled?.outcome);
      };
      const unsubscribe = block.subscribe(settle);
      options.signal.addEventListener("abort", () => block.dismiss(), { once: true });
      if (options.signal.aborted) block.dismiss();
      show(block);
      settle();
    });
    return outcomeToClaudePermissionResult(parsed.input, parsed.request, outcome);
  };
}
