// @vitest-environment jsdom
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createElicitation } from "@/hooks/create-elicitation";
import { PrepickMessagesProvider } from "@/hooks/prepick-messages-context";
import { settleAnswers } from "@/lib/prepick/core/outcome";
import type { Question } from "@/lib/prepick/core/question";
import { germanMessages } from "../../demo/demo-messages";
import { approvalBlock, textBlock, toolBlock, transcriptMessage, userMessage } from "./chat.fixture";
import { ChatApproval } from "./chat-approval";
import { ChatComposer } from "./chat-composer";
import { ChatElicitation } from "./chat-elicitation";
import { ChatToolCall } from "./chat-tool-call";
import { ChatTranscript } from "./chat-transcript";
import { refactorerRequest } from "./elicitation.fixture";

afterEach(cleanup);

const typed: Question[] = [
  {
    id: "seats",
    prompt: "How many seats?",
    input: { type: "number", min: 1, max: 5000 },
    defaults: ["1200.5"],
  },
  { id: "day", prompt: "Which day?", input: { type: "date" }, defaults: ["2026-12-04"] },
  { id: "ok", prompt: "Go ahead?", input: { type: "boolean" }, defaults: ["true"] },
];

describe("one messages object for every word", () => {
  it("a question set speaks the messages it was made with: progress, buttons, hints, options", () => {
    const block = createElicitation({
      id: "s1",
      request: refactorerRequest,
      messages: germanMessages,
      onAnswer: vi.fn(),
    });
    render(<ChatElicitation block={block} />);
    const form = screen.getByRole("form", { name: "Fragen des Agenten" });
    expect(within(form).getByText("Frage 1 von 3")).toBeTruthy();
    expect(within(form).getByRole("button", { name: "Weiter" })).toBeTruthy();
    expect(within(form).getByRole("button", { name: /Überspringen/ })).toBeTruthy();
    expect(within(form).getAllByText("vorausgewählt").length).toBeGreaterThan(0);
    expect(form.querySelector("[data-slot=elicitation-hints]")?.textContent).toContain("nächste Frage");
    // No English word of ours is left on the form.
    const ours = ["progress", "actions", "hints"].map(
      (slot) => form.querySelector(`[data-slot=elicitation-${slot}]`)?.textContent ?? "",
    );
    expect(ours.join(" ")).not.toMatch(/\b(Next|Skip|Question|pre-picked|confirm)\b/);
  });

  it("the settled view writes numbers, dates and Yes/No for the locale", () => {
    const block = createElicitation({
      id: "s2",
      request: { source: "ask", questions: typed },
      messages: germanMessages,
      outcome: settleAnswers(typed, {}),
      onAnswer: vi.fn(),
    });
    render(<ChatElicitation block={block} />);
    const settled = document.querySelector("[data-slot=elicitation-settled]") as HTMLElement;
    expect(settled.textContent).toContain("Beantwortet");
    expect(settled.textContent).toContain("1.200,5");
    expect(settled.textContent).toContain("04.12.2026");
    expect(settled.textContent).toContain("Ja");
    expect(settled.textContent).not.toContain("2026-12-04");
  });

  it("the provider reaches the transcript, the cards and the composer", () => {
    render(
      <PrepickMessagesProvider messages={germanMessages}>
        <ChatTranscript
          messages={[
            userMessage("m1", "Hallo"),
            transcriptMessage("m2", "assistant", [
              toolBlock("m2", {
                id: "c1",
                toolName: "read_file",
                input: { a: 1 },
                status: "done",
                output: 1,
              }),
            ]),
          ]}
        />
        <ChatApproval block={approvalBlock("m3")} />
        <ChatComposer onSend={vi.fn()} />
      </PrepickMessagesProvider>,
    );
    expect(screen.getByRole("region", { name: "Unterhaltung" })).toBeTruthy();
    expect(screen.getByRole("article", { name: "Sie" })).toBeTruthy();
    expect(screen.getByText("Fertig")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Erlauben" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Ablehnen" })).toBeTruthy();
    expect(screen.getByText(/Darf/).textContent).toMatch(/^Darf purge_cache ausgeführt werden\?$/);
    expect(screen.getByRole("textbox", { name: "Nachricht" })).toBeTruthy();
  });

  it("a component's own prop is laid over the provider's", () => {
    render(
      <PrepickMessagesProvider messages={germanMessages}>
        <ChatComposer onSend={vi.fn()} messages={{ composer: { send: "Abschicken" } }} />
      </PrepickMessagesProvider>,
    );
    expect(screen.getByRole("button", { name: "Abschicken" })).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "Nachricht" })).toBeTruthy();
  });
});

describe("a malformed ask", () => {
  it("reads as one sentence, with the model's input and the problems behind a closed disclosure", () => {
    render(
      <ChatToolCall
        block={toolBlock("m1", {
          id: "c1",
          toolName: "ask",
          input: { questions: [{ prompt: "" }] },
          status: "error",
          errorText:
            "The questions were not asked. Fix these and call ask again:\n- questions.0.id is required",
        })}
      />,
    );
    const card = document.querySelector("[data-slot=chat-tool-call]") as HTMLElement;
    expect(card.getAttribute("data-kind")).toBe("malformed-ask");
    expect(screen.getByText("The agent's questions were malformed; it was asked to try again.")).toBeTruthy();
    const details = card.querySelector("details") as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector("summary")?.textContent).toBe("Details");
    expect(details.textContent).toContain("questions.0.id is required");
    // Not a red error card.
    expect(card.className).not.toContain("destructive");
  });
});

describe("the agent's text as Markdown", () => {
  // The renderer is its own module, loaded on first use: load it once here, as a page would have.
  beforeAll(async () => {
    await import("./chat-markdown");
  });

  it("renders emphasis, lists, code and links, and drops the model's raw HTML", async () => {
    const text = [
      "I wrote the **release notes**:",
      "",
      "- one",
      "- two",
      "",
      "```ts",
      "const x = 1;",
      "```",
      "",
      'See [the docs](https://example.com/docs). <script>alert(1)</script><b onclick="x()">raw</b>',
    ].join("\n");
    render(<ChatTranscript messages={[transcriptMessage("m1", "assistant", [textBlock("m1", text)])]} />);
    const shown = document.querySelector("[data-slot=chat-message-text]") as HTMLElement;
    // The renderer loads on first use; until then the text shows as plain paragraphs.
    await waitFor(() => expect(shown.querySelector("[data-slot=chat-message-plain]")).toBeNull());
    expect(shown.querySelector("[data-streamdown=strong], strong")?.textContent).toBe("release notes");
    expect(shown.querySelectorAll("li")).toHaveLength(2);
    expect(shown.querySelector("pre code, code")?.textContent).toContain("const x = 1;");
    expect(shown.querySelector("a")?.getAttribute("href")).toBe("https://example.com/docs");
    expect(shown.textContent).not.toContain("**");
    expect(shown.querySelector("script, b[onclick]")).toBeNull();
    expect(shown.textContent).not.toContain("alert(1)");
  });

  it("a half-streamed emphasis shows no raw markers, and the person's own text stays as typed", async () => {
    render(
      <ChatTranscript
        messages={[
          userMessage("m1", "use **stars** please"),
          transcriptMessage("m2", "assistant", [textBlock("m2", "Working on the **release", true)]),
        ]}
      />,
    );
    const [mine, theirs] = document.querySelectorAll("[data-slot=chat-message-text]");
    await waitFor(() => expect(theirs?.querySelector("[data-slot=chat-message-plain]")).toBeNull());
    expect(mine?.textContent).toBe("use **stars** please");
    expect(theirs?.textContent).not.toContain("**");
    expect(theirs?.textContent).toContain("release");
  });
});
