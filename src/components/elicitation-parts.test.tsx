// @vitest-environment jsdom

import { act, cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import { createElicitation } from "@/hooks/create-elicitation";
import { settleSkipped } from "@/lib/prepick/core/outcome";
import type { ElicitationOutcome, Question } from "@/lib/prepick/core/question";
import { ToolCallError } from "@/lib/prepick/transport";
import { ChatElicitation } from "./chat-elicitation";
import { freeTextQuestion, refactorerRequest, typedQuestions } from "./elicitation.fixture";

afterEach(cleanup);

function blockOf(questions: Question[], id = "parts") {
  return createElicitation({ id, request: { source: "ask", questions } });
}

function question(type: string): Question {
  const found = typedQuestions[type];
  if (!found) throw new Error(`no fixture for the ${type} input`);
  return found;
}

describe("typed questions", () => {
  it.each([
    ["text", "textbox", "text"],
    ["email", "textbox", "email"],
    ["url", "textbox", "url"],
    ["number", "spinbutton", "number"],
  ])("asks a %s question with a native %s of type %s, labelled by its prompt", (type, role, inputType) => {
    const asked = question(type);
    render(<ChatElicitation block={blockOf([asked])} />);
    const field = screen.getByRole(role, { name: asked.prompt });
    expect(field.getAttribute("type")).toBe(inputType);
    expect((field as HTMLInputElement).value).toBe(asked.defaults?.[0] ?? "");
  });

  it("steps a whole-number field by 1 with the digits keyboard, and any other by any amount", () => {
    const whole: Question = { id: "seats", prompt: "Seats?", input: { type: "number", min: 1, step: 1 } };
    const free: Question = { id: "budget", prompt: "Budget?", input: { type: "number", min: 1 } };
    render(<ChatElicitation block={blockOf([whole, free])} layout="all-at-once" />);
    const seats = screen.getByRole("spinbutton", { name: "Seats?" });
    expect([seats.getAttribute("step"), seats.getAttribute("inputmode")]).toEqual(["1", "numeric"]);
    const budget = screen.getByRole("spinbutton", { name: "Budget?" });
    expect([budget.getAttribute("step"), budget.getAttribute("inputmode")]).toEqual(["any", "decimal"]);
  });

  it("asks a textarea question with a textarea", () => {
    const asked = question("textarea");
    render(<ChatElicitation block={blockOf([asked])} />);
    expect(screen.getByRole("textbox", { name: asked.prompt }).tagName).toBe("TEXTAREA");
  });

  it("counts capped text live under the field, and says how many too many past the cap", async () => {
    const user = userEvent.setup();
    const asked: Question = { ...question("textarea"), input: { type: "textarea", max: 5 } };
    render(<ChatElicitation block={blockOf([asked])} />);
    const field = screen.getByRole("textbox", { name: asked.prompt });
    const count = () => document.querySelector("[data-slot=elicitation-character-count]");
    expect(count()?.textContent).toBe("5 characters left");
    // The field is described by its count, so a screen reader hears it with the field.
    expect(field.getAttribute("aria-describedby")?.split(" ")).toContain(count()?.id);
    await user.type(field, "héllo👋!");
    expect(count()?.textContent).toBe("2 characters too many");
    expect(count()?.getAttribute("data-over")).toBe("true");
    const countId = count()?.id;
    // Refused, the error says it (with the length now): the count goes, so it is said once.
    await user.keyboard("{Control>}{Enter}{/Control}");
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toBe("At most 5 characters (7 now).");
    expect(count()).toBeNull();
    const describedBy = field.getAttribute("aria-describedby")?.split(" ");
    expect(describedBy).toContain(alert.id);
    expect(describedBy).not.toContain(countId);
  });

  it("asks a date question with a date input bounded by the question's min and max", () => {
    const asked = question("date");
    render(<ChatElicitation block={blockOf([asked])} />);
    const field = document.querySelector<HTMLInputElement>("input[type=date]");
    expect(field?.value).toBe("2026-06-30");
    expect(field?.min).toBe("2026-01-01");
    expect(field?.max).toBe("2026-12-31");
    expect(field?.getAttribute("aria-labelledby")).toBe(screen.getByText(asked.prompt).id);
  });

  it("asks a datetime question with a local date-and-time input, bounded and canonical", async () => {
    const user = userEvent.setup();
    const asked: Question = {
      id: "meeting",
      prompt: "When shall we meet?",
      input: { type: "datetime", min: "2026-12-04T09:00", max: "2026-12-31T17:00" },
      defaults: ["2026-12-04T14:30"],
    };
    const block = blockOf([asked]);
    render(<ChatElicitation block={block} autoFocus />);
    const field = document.querySelector<HTMLInputElement>("input[type=datetime-local]");
    expect([field?.value, field?.min, field?.max]).toEqual([
      "2026-12-04T14:30",
      "2026-12-04T09:00",
      "2026-12-31T17:00",
    ]);
    expect(field?.getAttribute("aria-labelledby")).toBe(screen.getByText(asked.prompt).id);
    expect(document.activeElement).toBe(field);
    if (!field) return;
    await user.clear(field);
    await user.type(field, "2026-12-05T10:15");
    expect(block.getSnapshot().questions[0]?.value).toEqual(["2026-12-05T10:15"]);
  });

  it("asks a select question with a native select showing the pre-picked option", async () => {
    const user = userEvent.setup();
    const asked = question("select");
    const block = blockOf([asked]);
    render(<ChatElicitation block={block} />);
    const select = screen.getByRole("combobox", { name: asked.prompt });
    expect((select as HTMLSelectElement).value).toBe("eu-west");
    expect(within(select).getByRole("option", { name: "Europe (Ireland) (pre-picked)" })).toBeTruthy();
    await user.selectOptions(select, "ap-south");
    expect(block.getSnapshot().questions[0]?.value).toEqual(["ap-south"]);
  });

  it("offers a field for a value of one's own on a select that allows free text", async () => {
    const user = userEvent.setup();
    const asked: Question = { ...question("select"), allowFreeText: true };
    const block = blockOf([asked]);
    render(<ChatElicitation block={block} />);
    const select = screen.getByRole("combobox", { name: asked.prompt }) as HTMLSelectElement;
    await user.type(screen.getByRole("textbox", { name: "Or write your own answer" }), "sa-east");
    expect(block.getSnapshot().questions[0]?.value).toEqual(["sa-east"]);
    // The select shows no option as picked, rather than the first one.
    expect(select.value).toBe("");
    expect(within(select).getByRole("option", { name: "Choose…" })).toBeTruthy();
    await user.selectOptions(select, "us-east");
    expect(block.getSnapshot().questions[0]?.value).toEqual(["us-east"]);
  });

  it("asks a boolean question as a Yes/No pair with y and n as hotkeys", async () => {
    const user = userEvent.setup();
    const asked = question("boolean");
    const block = blockOf([asked]);
    render(<ChatElicitation block={block} autoFocus />);
    const yes = screen.getByRole("radio", { name: "Yes" });
    expect(yes.getAttribute("aria-checked")).toBe("true");
    expect(yes.getAttribute("aria-keyshortcuts")).toBe("y");
    await user.keyboard("n");
    expect(screen.getByRole("radio", { name: "No" }).getAttribute("aria-checked")).toBe("true");
    expect(block.getSnapshot().questions[0]?.value).toEqual(["false"]);
  });

  it("marks a typed default as pre-picked until the person changes it", async () => {
    const user = userEvent.setup();
    const asked = question("url");
    render(<ChatElicitation block={blockOf([asked])} />);
    expect(screen.getByText("pre-picked")).toBeTruthy();
    await user.type(screen.getByRole("textbox", { name: asked.prompt }), "/tree/main");
    expect(screen.queryByText("pre-picked")).toBeNull();
  });

  it("keeps a textarea's Enter for new lines and confirms on Ctrl+Enter", async () => {
    const user = userEvent.setup();
    const asked = question("textarea");
    const sent: unknown[] = [];
    const block = createElicitation({
      id: "notes",
      request: { questions: [asked] },
      onAnswer: async (answers): Promise<ElicitationOutcome> => {
        sent.push(answers);
        return { answers, skipped: false, defaulted: [], summary: "" };
      },
    });
    render(<ChatElicitation block={block} />);
    const notes = screen.getByRole("textbox", { name: asked.prompt });
    await user.click(notes);
    await user.keyboard("one{Enter}two");
    expect((notes as HTMLTextAreaElement).value).toBe("one\ntwo");
    expect(sent).toEqual([]);
    await user.keyboard("{Control>}{Enter}{/Control}");
    expect(sent).toEqual([{ notes: ["one\ntwo"] }]);
  });

  it("does not submit on Shift+Enter in a one-line field", async () => {
    const user = userEvent.setup();
    const asked = question("email");
    const block = blockOf([asked]);
    render(<ChatElicitation block={block} />);
    await user.type(
      screen.getByRole("textbox", { name: asked.prompt }),
      "sam@example.com{Shift>}{Enter}{/Shift}",
    );
    expect(block.getSnapshot().answer.status).toBe("idle");
    expect(screen.getByRole("form").getAttribute("data-status")).toBe("editing");
  });
});

describe("free text beside the options", () => {
  it("adds the person's own answer to the picked options, and a new pick keeps it", async () => {
    const user = userEvent.setup();
    const block = blockOf([freeTextQuestion]);
    render(<ChatElicitation block={block} />);
    await user.type(screen.getByRole("textbox", { name: "Or write your own answer" }), "Carol");
    expect(block.getSnapshot().questions[0]?.value).toEqual(["alice", "Carol"]);
    await user.click(screen.getByRole("checkbox", { name: "Bob" }));
    expect(block.getSnapshot().questions[0]?.value).toEqual(["alice", "Carol", "bob"]);
    expect(
      (screen.getByRole("textbox", { name: "Or write your own answer" }) as HTMLInputElement).value,
    ).toBe("Carol");
  });

  it("replaces the pick of a single-choice question, and a new pick clears the field", async () => {
    const user = userEvent.setup();
    const single: Question = { ...freeTextQuestion, multiple: false };
    const block = blockOf([single]);
    render(<ChatElicitation block={block} />);
    const field = screen.getByRole("textbox", { name: "Or write your own answer" }) as HTMLInputElement;
    await user.type(field, "Carol");
    expect(block.getSnapshot().questions[0]?.value).toEqual(["Carol"]);
    expect(screen.getByRole("radio", { name: "Alice" }).getAttribute("aria-checked")).toBe("false");
    await user.click(screen.getByRole("radio", { name: "Bob" }));
    expect(block.getSnapshot().questions[0]?.value).toEqual(["bob"]);
    expect(field.value).toBe("");
  });
});

describe("the form's states", () => {
  it("goes back a question with Back, and only the current question is on screen", async () => {
    const user = userEvent.setup();
    const block = createElicitation({ id: "back", request: refactorerRequest, index: 2 });
    render(<ChatElicitation block={block} />);
    expect(screen.queryByRole("radiogroup", { name: "How much should I cover?" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("Question 2 of 3");
    expect(document.activeElement).toBe(screen.getByRole("group", { name: "Which tests should I touch?" }));
    await user.click(screen.getByRole("button", { name: "Back" }));
    expect(screen.queryByRole("button", { name: "Back" })).toBeNull();
  });

  it("shows pending, editing and submitting as the form's data-status, and disables the controls while sending", async () => {
    const user = userEvent.setup();
    let finish: (outcome: ElicitationOutcome) => void = () => {};
    const block = createElicitation({
      id: "states",
      request: refactorerRequest,
      onAnswer: () => new Promise<ElicitationOutcome>((resolve) => (finish = resolve)),
    });
    render(<ChatElicitation block={block} layout="all-at-once" />);
    const form = screen.getByRole("form");
    expect(form.getAttribute("data-status")).toBe("pending");
    await user.click(screen.getByRole("radio", { name: "This file" }));
    expect(form.getAttribute("data-status")).toBe("editing");
    await user.click(screen.getByRole("button", { name: "Confirm" }));
    expect(form.getAttribute("data-status")).toBe("submitting");
    expect(form.getAttribute("aria-busy")).toBe("true");
    expect(screen.getByRole("button", { name: "Sending…" })).toHaveProperty("disabled", true);
    expect(screen.getByRole("radio", { name: "The whole module" })).toHaveProperty("disabled", true);
    await user.keyboard("s");
    expect(block.getSnapshot().skip.status).toBe("idle");
    await act(async () =>
      finish({ answers: { scope: ["file"] }, skipped: false, defaulted: [], summary: "The user answered:" }),
    );
    expect(screen.getByText("Answered")).toBeTruthy();
  });

  it("settles in place when the outcome arrives from elsewhere (another tab, the stream)", () => {
    const block = createElicitation({ id: "elsewhere", request: refactorerRequest });
    render(<ChatElicitation block={block} />);
    expect(screen.getByRole("form")).toBeTruthy();
    act(() =>
      block.settle({
        answers: { scope: ["module"], tests: ["unit"], api: ["keep"] },
        skipped: true,
        defaulted: ["scope", "tests", "api"],
        summary: "",
      }),
    );
    expect(screen.queryByRole("form")).toBeNull();
    expect(screen.getByText("Skipped: the agent's picks stand.")).toBeTruthy();
  });
});

describe("refusals and failures", () => {
  it("brings a refused earlier question back on screen and focuses it", async () => {
    const user = userEvent.setup();
    const block = createElicitation({
      id: "refused-earlier",
      request: refactorerRequest,
      index: 2,
      onAnswer: async (): Promise<ElicitationOutcome> => {
        throw new ToolCallError({
          kind: "invalid",
          status: 400,
          error: "Some answers were refused",
          issues: [{ questionId: "scope", rule: "option", message: 'answers["scope"] is no longer offered' }],
        });
      },
    });
    render(<ChatElicitation block={block} autoFocus />);
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("Question 3 of 3");
    await user.keyboard("{Enter}");
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("Question 1 of 3");
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toBe("Choose one of the options.");
    // The question's group takes the focus, described by the error: the prompt and why, together.
    const group = screen.getByRole("group", { name: "How much should I cover?" });
    expect(document.activeElement).toBe(group);
    expect(group.getAttribute("aria-describedby")?.split(" ")).toContain(alert.id);
    expect(screen.getByRole("radiogroup").getAttribute("aria-invalid")).toBe("true");
  });

  it("offers a retry when a skip did not get through", async () => {
    const user = userEvent.setup();
    let calls = 0;
    const block = createElicitation({
      id: "skip-offline",
      request: refactorerRequest,
      onSkip: async () => {
        calls += 1;
        if (calls === 1) throw new Error("Failed to fetch");
        return settleSkipped(refactorerRequest.questions);
      },
    });
    render(<ChatElicitation block={block} autoFocus />);
    await user.keyboard("s");
    // The question's own alert stays empty; the form's says why.
    const said = screen.getAllByRole("alert").filter((alert) => alert.textContent !== "");
    expect(said.map((alert) => alert.textContent)).toEqual([
      expect.stringContaining("The skip was not sent."),
    ]);
    expect(screen.getByRole("form").getAttribute("data-status")).toBe("failed");
    await user.keyboard("{Enter}");
    expect(calls).toBe(2);
    expect(screen.getByText("Skipped: the agent's picks stand.")).toBeTruthy();
  });
});
