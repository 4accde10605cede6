import { Streamdown } from "streamdown";

/**
 * The agent's text as Markdown (lists, code, links, tables) with Streamdown, which is made for
 * text that is still streaming: a half-written `**bold` or code fence renders as it will end,
 * never as raw markers. Raw HTML from the model is dropped (`skipHtml`), never rendered, and
 * links keep Streamdown's hardening (only safe protocols). `ChatMessageText` loads it on its own
 * (`React.lazy`), so a page takes the Markdown stack only once the agent says something.
 */
function ChatMarkdown({
  text,
  streaming,
  className,
}: {
  /** The Markdown. */
  text: string;
  /** Whether more is on its way (a half-written construct renders as it will end). */
  streaming: boolean;
  /** Classes for the rendered block. */
  className?: string;
}) {
  return (
    <Streamdown
      mode={streaming ? "streaming" : "static"}
      isAnimating={streaming}
      skipHtml
      dir="auto"
      linkSafety={{ enabled: false }}
      className={className}
    >
      {text}
    </Streamdown>
  );
}

export { ChatMarkdown };
