import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { expect, fn, userEvent, within } from "storybook/test";
import type { SendDecision } from "@/hooks/approval-store";
import type { ApprovalState } from "@/hooks/transcript-types";
import type { ApprovalEdits } from "@/lib/prepick/core/approval-edits";
import { ToolCallError } from "@/lib/prepick/transport";
import { editablePurge, proposedPurge } from "./chat.fixture";
import { ChatApproval } from "./chat-approval";

/** Mounts a fresh editable approval per story render: the demo's purge, which cache and how far back. */
function EditableApprovalStory({
  state,
  edits,
  send,
}: {
  state?: ApprovalState;
  edits?: ApprovalEdits;
  send?: SendDecision;
}) {
  const [block] = useState(() =>
    editablePurge("m1", {
      ...(state ? { state } : {}),
      ...(edits ? { edits } : {}),
      ...(send ? { send } : {}),
    }),
  );
  return <ChatApproval block={block} />;
}

const meta = {
  title: "Chat/ChatApproval/Editable",
  component: EditableApprovalStory,
  decorators: [
    (Story) => (
      <div className="mx-auto max-w-2xl">
        <Story />
      </div>
    ),
  ],
  parameters: {
    viewport: {
      options: {
        phone: { name: "Phone 390×844", styles: { width: "390px", height: "844px" }, type: "mobile" },
      },
    },
  },
} satisfies Meta<typeof EditableApprovalStory>;

export default meta;
type Story = StoryObj<typeof meta>;

const hoursField = (canvas: ReturnType<typeof within>) =>
  canvas.getByRole("spinbutton", { name: /How far back/ });

/** The server's answer to an approval with these fields changed. */
function approvedWith(changed: Record<string, unknown>): ApprovalEdits {
  return { input: { ...proposedPurge, ...changed }, edited: Object.keys(changed) };
}

const send = fn<SendDecision>(async (_approved, _reason, answers) =>
  approvedWith(answers?.hours ? { hours: Number(answers.hours[0]) } : {}),
);

/** The stories that approve through {@link send}, its calls cleared before each. */
const sending = {
  args: { send },
  beforeEach: () => {
    send.mockClear();
  },
};

/** Waiting: each field pre-picked with the model's proposal and marked "proposed". */
export const Pending: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("form", { name: /Allow purge_cache to run\?/ })).toBeVisible();
    await expect(canvas.getByRole("radio", { name: /Images/ })).toBeChecked();
    await expect(hoursField(canvas)).toHaveValue(24);
    // The proposed option and the untouched number each say so.
    await expect(canvas.getAllByText("proposed")).toHaveLength(2);
  },
};

/** Enter in a field approves as proposed: nothing changed is sent. */
export const ApproveAsProposedByEnter: Story = {
  ...sending,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    hoursField(canvas).focus();
    await userEvent.keyboard("{Enter}");
    await expect(await canvas.findByText("You approved this call.")).toBeVisible();
    await expect(send).toHaveBeenCalledWith(true, undefined, {});
    await expect(canvas.getAllByText("proposed")).toHaveLength(2);
  },
};

/** One field changed, then Approve: the settled card shows what ran beside what was proposed. */
export const EditThenApprove: Story = {
  ...sending,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.clear(hoursField(canvas));
    await userEvent.type(hoursField(canvas), "6");
    // A changed field no longer says "proposed"; the untouched one still does.
    await expect(canvas.getAllByText("proposed")).toHaveLength(1);
    await userEvent.click(canvas.getByRole("button", { name: "Approve" }));
    await expect(send).toHaveBeenCalledWith(true, undefined, { hours: ["6"] });
    await expect(await canvas.findByText("You approved this call with your changes.")).toBeVisible();
    await expect(canvas.getByText("proposed: 24")).toBeVisible();
    await expect(canvas.getByText("6")).toBeVisible();
  },
};

/** A value the rules refuse is not sent: the field says why, and the call still waits. */
export const InvalidField: Story = {
  ...sending,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.clear(hoursField(canvas));
    await userEvent.type(hoursField(canvas), "500");
    await userEvent.click(canvas.getByRole("button", { name: "Approve" }));
    await expect(send).not.toHaveBeenCalled();
    await expect(hoursField(canvas)).toHaveAttribute("aria-invalid", "true");
    await expect(hoursField(canvas)).toHaveAccessibleDescription(/168/);
    await expect(canvasElement.querySelector('[data-slot="chat-approval"]')).toHaveAttribute(
      "data-state",
      "pending",
    );
  },
};

const refusing = fn<SendDecision>(async () => {
  throw new ToolCallError({
    kind: "invalid",
    status: 400,
    error: 'The edits were refused: answers["hours"] is refused by the tool\'s input schema',
    issues: [
      {
        questionId: "hours",
        rule: "schema",
        value: "7",
        message: 'answers["hours"] is refused by the tool\'s input schema: not on a Sunday',
      },
    ],
  });
});

/** The server refuses an edit for a rule only the tool knows: the refusal shows on its field. */
export const RefusedByServer: Story = {
  args: { send: refusing },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.clear(hoursField(canvas));
    await userEvent.type(hoursField(canvas), "7");
    await userEvent.click(canvas.getByRole("button", { name: "Approve" }));
    await expect(hoursField(canvas)).toHaveAttribute("aria-invalid", "true");
    await expect(canvas.getByRole("button", { name: "Approve" })).toBeEnabled();
  },
};

let offline = true;
const flaky = fn<SendDecision>(async (_approved, _reason, answers) => {
  if (offline) throw new ToolCallError({ kind: "network", error: "The server could not be reached." });
  return approvedWith(answers?.cache ? { cache: answers.cache[0] } : {});
});

/** The approval did not get through; Retry sends the same changed fields again. */
export const FailsThenRetries: Story = {
  args: { send: flaky },
  beforeEach: () => {
    offline = true;
    flaky.mockClear();
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole("radio", { name: /Every cache/ }));
    await userEvent.click(canvas.getByRole("button", { name: "Approve" }));
    // The card's own alert (each field keeps an empty one of its own for its refusals).
    await expect(await canvas.findByText(/Your decision was not sent\./)).toHaveAttribute("role", "alert");
    offline = false;
    await userEvent.click(canvas.getByRole("button", { name: "Retry" }));
    await expect(await canvas.findByText("You approved this call with your changes.")).toBeVisible();
    await expect(flaky).toHaveBeenLastCalledWith(true, undefined, { cache: ["all"] });
  },
};

/** Approved with a change, as a reload or another tab shows it. */
export const ApprovedWithEdits: Story = {
  args: {
    state: { status: "settled", approved: true, conflict: false },
    edits: approvedWith({ hours: 6 }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("You approved this call with your changes.")).toBeVisible();
    const edited = canvasElement.querySelector('[data-slot="chat-approval-change"][data-edited="true"]');
    await expect(edited).toHaveTextContent("How far back, in hours?6proposed: 24");
    await expect(canvas.queryByRole("form")).toBeNull();
  },
};

/** Approved as proposed: every field marked "proposed". */
export const ApprovedAsProposed: Story = {
  args: {
    state: { status: "settled", approved: true, conflict: false },
    edits: approvedWith({}),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("You approved this call.")).toBeVisible();
    await expect(canvas.getAllByText("proposed")).toHaveLength(2);
  },
};

/** Rejected with a reason: the form is gone, the proposal shown as it was. */
export const Rejected: Story = {
  args: { state: { status: "settled", approved: false, reason: "Not the images", conflict: false } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText("You rejected this call. Reason: Not the images")).toBeVisible();
    await expect(canvas.queryByRole("form")).toBeNull();
    await expect(canvas.getByText(/"cache": "images"/)).toBeVisible();
  },
};

/** Waiting, in the dark theme. */
export const Dark: Story = { globals: { theme: "dark" } };

/** On a 390×844 phone: every field and button lies in view, nothing scrolls sideways; edit and approve by touch. */
export const OnPhone: Story = {
  args: { send },
  globals: { viewport: { value: "phone", isRotated: false } },
  beforeEach: () => {
    send.mockClear();
  },
  play: async ({ canvasElement }) => {
    await expect(window.innerWidth).toBe(390);
    const canvas = within(canvasElement);
    const card = canvasElement.querySelector<HTMLElement>('[data-slot="chat-approval"]');
    await expect(card?.scrollWidth).toBeLessThanOrEqual(card?.clientWidth ?? 0);
    for (const control of [
      ...canvas.getAllByRole("radio"),
      hoursField(canvas),
      canvas.getByRole("button", { name: "Approve" }),
      canvas.getByRole("button", { name: "Reject" }),
    ]) {
      const box = control.getBoundingClientRect();
      await expect(box.right).toBeLessThanOrEqual(window.innerWidth);
      await expect(box.left).toBeGreaterThanOrEqual(0);
    }
    await userEvent.click(canvas.getByRole("radio", { name: /Pages/ }));
    await userEvent.click(canvas.getByRole("button", { name: "Approve" }));
    await expect(send).toHaveBeenCalledWith(true, undefined, { cache: ["pages"] });
  },
};
