import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect, waitFor, within } from "storybook/test";
import { Badge } from "./badge";
import { Bubble, BubbleContent } from "./bubble";
import { Button } from "./button";
import { Card, CardAction, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "./card";
import { Checkbox } from "./checkbox";
import { Input } from "./input";
import { Kbd, KbdGroup } from "./kbd";
import { Label } from "./label";
import { Marker, MarkerContent } from "./marker";
import { Message, MessageContent, MessageFooter } from "./message";
import {
  MessageScroller,
  MessageScrollerButton,
  MessageScrollerContent,
  MessageScrollerItem,
  MessageScrollerProvider,
  MessageScrollerViewport,
} from "./message-scroller";
import { NativeSelect, NativeSelectOption } from "./native-select";
import { RadioGroup, RadioGroupItem } from "./radio-group";
import { Textarea } from "./textarea";

/**
 * The shadcn primitives the components build on, as this repository writes them: every variant
 * and size, in light and dark, so the axe check covers what an installed form is made of.
 */
const meta = {
  title: "Primitives",
  parameters: { layout: "padded" },
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

function Primitives() {
  return (
    <div className="flex max-w-xl flex-col gap-6">
      <div className="flex flex-wrap items-center gap-2">
        <Button>Default</Button>
        <Button variant="secondary">Secondary</Button>
        <Button variant="outline">Outline</Button>
        <Button variant="ghost">Ghost</Button>
        <Button variant="destructive">Destructive</Button>
        <Button variant="link">Link</Button>
        <Button size="sm">Small</Button>
        <Button size="lg">Large</Button>
        <Button size="icon" aria-label="Add">
          +
        </Button>
        <Button size="icon-sm" variant="outline" aria-label="Remove">
          −
        </Button>
        <Button size="xs" variant="secondary">
          Extra small
        </Button>
        <Button asChild variant="outline">
          <a href="#primitives">A link as a button</a>
        </Button>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Badge>Default</Badge>
        <Badge variant="secondary">Secondary</Badge>
        <Badge variant="outline">Outline</Badge>
        <Badge variant="destructive">Destructive</Badge>
        <KbdGroup>
          <Kbd>Ctrl</Kbd>
          <Kbd>K</Kbd>
        </KbdGroup>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Card title</CardTitle>
          <CardDescription>A line under the title.</CardDescription>
          <CardAction>
            <Button size="sm" variant="outline">
              Action
            </Button>
          </CardAction>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor="primitive-input">Name</Label>
            <Input id="primitive-input" placeholder="Ada" />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="primitive-textarea">Notes</Label>
            <Textarea id="primitive-textarea" placeholder="Anything else?" />
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="primitive-select">Region</Label>
            <NativeSelect id="primitive-select" defaultValue="eu">
              <NativeSelectOption value="eu">Europe</NativeSelectOption>
              <NativeSelectOption value="us">United States</NativeSelectOption>
            </NativeSelect>
          </div>
          <RadioGroup aria-label="Size" defaultValue="m">
            <div className="flex items-center gap-2">
              <RadioGroupItem id="primitive-size-s" value="s" />
              <Label htmlFor="primitive-size-s">Small</Label>
            </div>
            <div className="flex items-center gap-2">
              <RadioGroupItem id="primitive-size-m" value="m" />
              <Label htmlFor="primitive-size-m">Medium</Label>
            </div>
          </RadioGroup>
          <div className="flex items-center gap-2">
            <Checkbox id="primitive-terms" defaultChecked />
            <Label htmlFor="primitive-terms">Accept the terms</Label>
          </div>
        </CardContent>
        <CardFooter>
          <Button>Save</Button>
        </CardFooter>
      </Card>
    </div>
  );
}

/** shadcn's chat layer: a scrolling transcript of message rows, bubbles and a marker. */
function ChatPrimitives() {
  const rows = Array.from({ length: 12 }, (_, index) => index);
  return (
    <div className="flex h-80 max-w-xl flex-col rounded-xl border">
      <MessageScrollerProvider autoScroll>
        <MessageScroller>
          <MessageScrollerViewport aria-label="Messages">
            <MessageScrollerContent className="gap-4 p-4">
              <MessageScrollerItem messageId="marker">
                <Marker variant="separator">
                  <MarkerContent>Today</MarkerContent>
                </Marker>
              </MessageScrollerItem>
              {rows.map((row) => (
                <MessageScrollerItem key={row} messageId={`row-${row}`} scrollAnchor={row % 2 === 0}>
                  <Message align={row % 2 === 0 ? "end" : "start"}>
                    <MessageContent>
                      <Bubble
                        variant={row % 2 === 0 ? "default" : "muted"}
                        align={row % 2 === 0 ? "end" : "start"}
                      >
                        <BubbleContent>{`Message ${row + 1}`}</BubbleContent>
                      </Bubble>
                      <MessageFooter>{`${row + 1} min ago`}</MessageFooter>
                    </MessageContent>
                  </Message>
                </MessageScrollerItem>
              ))}
            </MessageScrollerContent>
          </MessageScrollerViewport>
          <MessageScrollerButton />
        </MessageScroller>
      </MessageScrollerProvider>
    </div>
  );
}

/** Every primitive, labelled, in the light theme. */
export const Light: Story = {
  render: () => <Primitives />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole("radio", { name: "Medium" })).toBeChecked();
    await expect(canvas.getByRole("checkbox", { name: "Accept the terms" })).toBeChecked();
    await expect(canvas.getByRole("link", { name: "A link as a button" })).toHaveAttribute(
      "data-slot",
      "button",
    );
  },
};

/** The same, in the dark theme. */
export const Dark: Story = {
  render: () => <Primitives />,
  globals: { theme: "dark" },
  play: async () => {
    await waitFor(() => expect(document.documentElement).toHaveClass("dark"));
  },
};

/**
 * The chat layer opens at the newest message, so the button to the end is inert; scrolling to the
 * start wakes it, and pressing it brings the last message back into view.
 */
export const Chat: Story = {
  render: () => <ChatPrimitives />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const viewport = canvas.getByRole("region", { name: "Messages" });
    const last = canvas.getByText("Message 12");
    const inView = (element: Element) => {
      const box = element.getBoundingClientRect();
      const frame = viewport.getBoundingClientRect();
      return box.top >= frame.top - 1 && box.bottom <= frame.bottom + 1;
    };
    await waitFor(() => expect(inView(last)).toBe(true));
    const button = canvasElement.querySelector<HTMLButtonElement>("[data-slot=message-scroller-button]");
    await expect(button).toHaveAttribute("data-active", "false");
    viewport.dispatchEvent(new WheelEvent("wheel", { deltaY: -2000, bubbles: true }));
    viewport.scrollTop = 0;
    await waitFor(() => expect(button).toHaveAttribute("data-active", "true"));
    await expect(canvas.getByRole("log")).toContainElement(last);
    button?.click();
    await waitFor(() => expect(inView(last)).toBe(true));
  },
};
