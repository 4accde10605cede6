import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { expect, fn, userEvent, waitFor, within } from "storybook/test";
import { phoneViewport } from "@/components/ui/chat.fixture";
import { waitingApproval, waitingQuestions } from "@/components/ui/inbox.fixture";
import { expectDarkTheme } from "@/components/ui/theme.fixture";
import type { CallView } from "@/lib/prepick/core/inbox";
import { settleAnswers } from "@/lib/prepick/core/outcome";
import type { Answers } from "@/lib/prepick/core/question";
import { specIntake } from "@/lib/prepick/core/spec-examples";
import { ToolCallClient } from "@/lib/prepick/transport/tool-call-client";
import { AgentCall } from "./agent-call";

/** What the stand-in server holds at the link: a question set or an approval, and where it stands. */
interface Held {
  kind: "questions" | "approval";
  /** `pending_approval` while it waits; else what became of it. */
  status?: string;
  /** What the person typed into the set on another device. */
  draft?: CallView["draft"];
}

const OWNER = "ada";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** The call the link names, as `GET /agent/tool-calls/:callId` reads it to its owner. */
function callView(id: string, { kind, status = "pending_approval", draft }: Held): CallView {
  const call =
    kind === "questions"
      ? waitingQuestions("thread-lexer", "refactorer", id)
      : waitingApproval("thread-cache", id);
  const waits = status === "pending_approval";
  return {
    ...call,
    status,
    output: status === "answered" ? settleAnswers(specIntake.questions, { scope: ["file"] }) : null,
    settledAt: waits ? null : new Date(Date.UTC(2026, 0, 5, 11)).toISOString(),
    ...(draft ? { draft } : {}),
  };
}

/**
 * A stand-in for the reference server's call endpoints behind a `fetch` (docs/protocol.md): the
 * call's owner reads it, anyone else gets the 404 of a call that does not exist; `loading` never
 * answers, and the first `failing` reads answer 503 (each read is handed to `read`). Answers,
 * decisions and drafts are handed to `sent` and succeed.
 */
function callServer(
  id: string,
  held: Held | "loading",
  sent: (path: string, body: unknown) => void,
  read: () => void,
  failing = 0,
): typeof fetch {
  let failuresLeft = failing;
  return async (input, init) => {
    const path = new URL(String(input), "http://stand-in").pathname;
    const actor = new Headers(init?.headers).get("x-actor-id");
    if ((init?.method ?? "GET") === "POST") {
      const body = JSON.parse(String(init?.body)) as { answers?: Answers };
      sent(path, body);
      if (path === "/agent/tool-call/answer") {
        const output = settleAnswers(specIntake.questions, body.answers ?? {});
        return json({ toolCallId: id, status: "answered", output });
      }
      if (path === "/agent/tool-call/approve")
        return json({ toolCallId: id, status: "approved", output: null });
      return json({ toolCallId: id, status: "pending_approval", output: null });
    }
    read();
    if (held === "loading") return new Promise<Response>(() => {});
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      return json({ error: "the store is unavailable" }, 503);
    }
    if (path !== `/agent/tool-calls/${id}` || actor !== OWNER)
      return json({ error: `no tool call ${id}` }, 404);
    return json(callView(id, held));
  };
}

/** The block at a call's link, over a fresh stand-in per render (a fresh id: no draft of a rerun's). */
function CallStory({
  held,
  actorId = OWNER,
  failing,
  sent,
  read,
  onOpenThread,
}: {
  held: Held | "loading";
  /** Who opens the link. */
  actorId?: string;
  /** How many reads of the call fail (503) before it answers. */
  failing?: number;
  /** Every request that writes: its path and body. */
  sent: (path: string, body: unknown) => void;
  /** Every read of the call. */
  read: () => void;
  onOpenThread: (threadId: string, agent: string) => void;
}) {
  const [id] = useState(() => `call-${Math.random().toString(36).slice(2)}`);
  const [client] = useState(
    () => new ToolCallClient({ actorId, fetch: callServer(id, held, sent, read, failing) }),
  );
  return <AgentCall client={client} callId={id} onOpenThread={onOpenThread} />;
}

const meta = {
  title: "Blocks/AgentCall",
  component: CallStory,
  args: { held: { kind: "questions" }, sent: fn(), read: fn(), onOpenThread: fn() },
} satisfies Meta<typeof CallStory>;

export default meta;
type Story = StoryObj<typeof meta>;

const slot = (canvasElement: HTMLElement) => canvasElement.querySelector('[data-slot="agent-call"]');

/** While the call is read: one polite line, and nothing to act on yet. */
export const Loading: Story = {
  args: { held: "loading" },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("status")).toHaveTextContent("Opening what waits for you…");
    await expect(slot(canvasElement)).toHaveAttribute("data-status", "loading");
    await expect(canvas.queryByRole("heading")).toBeNull();
    await expect(canvas.queryByRole("button")).toBeNull();
  },
};

/**
 * A waiting question set, answerable at its link: named by its heading, the first question takes
 * the focus; confirming sends the answers and reads them back in place, then its conversation opens.
 */
export const WaitingQuestions: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const region = await canvas.findByRole("region", { name: "2 questions from refactorer" });
    await expect(within(region).getByRole("heading", { level: 1 })).toHaveTextContent(
      "2 questions from refactorer",
    );
    await expect(within(region).getByRole("progressbar")).toHaveAttribute(
      "aria-valuetext",
      "Question 1 of 2",
    );
    await waitFor(() =>
      expect(within(region).getByRole("group", { name: "How much should I cover?" })).toHaveFocus(),
    );

    await userEvent.click(within(region).getByRole("radio", { name: "This file" }));
    await userEvent.click(within(region).getByRole("button", { name: "Next" }));
    await userEvent.click(within(region).getByRole("button", { name: "Confirm" }));
    const answered = await within(region).findByRole("group", { name: "Answered" });
    await expect(within(answered).getByText("This file")).toBeVisible();
    await expect(args.sent).toHaveBeenCalledWith(
      "/agent/tool-call/answer",
      expect.objectContaining({ answers: expect.objectContaining({ scope: ["file"] }) }),
    );
    // The settled set stays put: the link still names it and leads to its conversation.
    await expect(slot(canvasElement)).toHaveAttribute("data-status", "waiting");

    await expect(args.onOpenThread).not.toHaveBeenCalled();
    await userEvent.click(canvas.getByRole("button", { name: "Open conversation" }));
    await expect(args.onOpenThread).toHaveBeenCalledOnce();
    await expect(args.onOpenThread).toHaveBeenCalledWith("thread-lexer", "refactorer");
  },
};

/**
 * On a phone, a set half answered on the desktop resumes where it was left: its second question,
 * with the first one's pick kept; moving on saves where the person is for the next device.
 */
export const ResumesDraftOnPhone: Story = {
  ...phoneViewport,
  args: {
    held: {
      kind: "questions",
      draft: { values: { scope: ["importers"] }, index: 1, updatedAt: "2026-01-05T10:30:00.000Z" },
    },
  },
  play: async ({ canvasElement, args }) => {
    await expect(window.innerWidth).toBe(390);
    const canvas = within(canvasElement);
    const region = await canvas.findByRole("region", { name: "2 questions from refactorer" });
    await expect(within(region).getByRole("progressbar")).toHaveAttribute(
      "aria-valuetext",
      "Question 2 of 2",
    );
    await waitFor(() =>
      expect(within(region).getByRole("group", { name: "Which tests should I touch?" })).toHaveFocus(),
    );
    await userEvent.click(within(region).getByRole("button", { name: "Back" }));
    await expect(within(region).getByRole("radio", { name: "Everything that imports it" })).toBeChecked();
    // Where the person is now goes back to the server, for the next device.
    await waitFor(() =>
      expect(args.sent).toHaveBeenCalledWith(expect.stringMatching(/^\/agent\/tool-calls\/call-.+\/draft$/), {
        values: { scope: ["importers"] },
        index: 0,
      }),
    );
    await expect(canvas.getByRole("button", { name: "Open conversation" })).toBeVisible();
  },
};

/**
 * A waiting approval, decided at its link: its card takes the focus, as a question set's first
 * question does; the decision replaces the buttons.
 */
export const WaitingApproval: Story = {
  args: { held: { kind: "approval" } },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const region = await canvas.findByRole("region", { name: "Approve purge_cache?" });
    const card = within(region).getByRole("region", { name: "Allow purge_cache to run?" });
    await expect(card).toBeVisible();
    await waitFor(() => expect(card).toHaveFocus());
    await expect(args.sent).not.toHaveBeenCalled();
    await userEvent.click(within(region).getByRole("button", { name: "Approve" }));
    await expect(await within(region).findByRole("region", { name: "purge_cache approved" })).toBeVisible();
    await expect(within(region).getByText("You approved this call.")).toBeVisible();
    await expect(args.sent).toHaveBeenCalledWith(
      "/agent/tool-call/approve",
      expect.objectContaining({ toolCallId: expect.stringMatching(/^call-/) }),
    );
    await expect(within(region).queryByRole("button", { name: "Approve" })).toBeNull();
  },
};

/**
 * Someone else's call (or one that does not exist: the server answers both with the same 404):
 * only that nothing waits here, with nothing of the call and nothing to act on.
 */
export const NotFound: Story = {
  args: { actorId: "stranger" },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole("alert")).toHaveTextContent(
      "Nothing waits for you at this link. It may be someone else's, or it no longer exists.",
    );
    await expect(slot(canvasElement)).toHaveAttribute("data-status", "not-found");
    await expect(canvas.queryByRole("heading")).toBeNull();
    await expect(canvas.queryByRole("button")).toBeNull();
    await expect(canvas.queryByText(/How much should I cover/)).toBeNull();
  },
};

/**
 * The server could not be read: a sentence says so, nothing of the call shows, and Try again reads
 * it anew. Failing again, the focus is back on Try again; once the server answers, the set opens
 * and its first question takes the focus.
 */
export const Failed: Story = {
  args: { failing: 2 },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole("alert")).toHaveTextContent(
      "This could not be opened just now. Try again in a moment.",
    );
    await expect(slot(canvasElement)).toHaveAttribute("data-status", "failed");
    await expect(canvas.queryByRole("heading")).toBeNull();
    await expect(canvas.getAllByRole("button").map((button) => button.textContent)).toEqual(["Try again"]);

    await expect(args.read).toHaveBeenCalledOnce();
    await userEvent.click(canvas.getByRole("button", { name: "Try again" }));
    await waitFor(() => expect(args.read).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(canvas.getByRole("button", { name: "Try again" })).toHaveFocus());
    await expect(canvas.getByRole("alert")).toHaveTextContent("This could not be opened just now.");

    await userEvent.click(canvas.getByRole("button", { name: "Try again" }));
    const region = await canvas.findByRole("region", { name: "2 questions from refactorer" });
    await expect(slot(canvasElement)).toHaveAttribute("data-status", "waiting");
    await waitFor(() =>
      expect(within(region).getByRole("group", { name: "How much should I cover?" })).toHaveFocus(),
    );
    await expect(canvas.queryByText(/could not be opened/)).toBeNull();
    await expect(canvas.queryByRole("button", { name: "Try again" })).toBeNull();
    await expect(args.read).toHaveBeenCalledTimes(3);
  },
};

/** Answered before the link was opened: what became of it, no form, and its conversation. */
export const AlreadyAnswered: Story = {
  args: { held: { kind: "questions", status: "answered" } },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const region = await canvas.findByRole("region", { name: "2 questions from refactorer" });
    await expect(within(region).getByRole("status")).toHaveTextContent("This was already answered.");
    await expect(slot(canvasElement)).toHaveAttribute("data-status", "settled");
    await expect(within(region).queryByRole("form")).toBeNull();
    await expect(within(region).queryByRole("radio")).toBeNull();
    await expect(args.onOpenThread).not.toHaveBeenCalled();
    await userEvent.click(within(region).getByRole("button", { name: "Open conversation" }));
    await expect(args.onOpenThread).toHaveBeenCalledOnce();
    await expect(args.onOpenThread).toHaveBeenCalledWith("thread-lexer", "refactorer");
  },
};

/** An approval whose run's deadline passed first: it says it expired, and nothing decides it now. */
export const Expired: Story = {
  args: { held: { kind: "approval", status: "expired" } },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const region = await canvas.findByRole("region", { name: "Approve purge_cache?" });
    await expect(within(region).getByRole("status")).toHaveTextContent(
      "This expired before anyone decided it.",
    );
    await expect(within(region).queryByRole("button", { name: "Approve" })).toBeNull();
    await expect(within(region).queryByRole("button", { name: "Reject" })).toBeNull();
    await userEvent.click(within(region).getByRole("button", { name: "Open conversation" }));
    await expect(args.onOpenThread).toHaveBeenCalledOnce();
    await expect(args.onOpenThread).toHaveBeenCalledWith("thread-cache", "operator");
  },
};

/** Already answered, in the dark theme. */
export const Dark: Story = {
  ...AlreadyAnswered,
  globals: { theme: "dark" },
  play: async (context) => {
    await AlreadyAnswered.play?.(context);
    await expectDarkTheme(within(context.canvasElement).getByRole("status"));
  },
};
