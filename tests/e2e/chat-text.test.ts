import { describe, expect, it } from "vitest";
import { composer, questionForm, sendMessage, waitForQuestions } from "./support/browser";
import { startDemoSession } from "./support/demo-session";

// The message box, the agent's text and the page's language, in real Chromium on the demo.
const FLOW_TIMEOUT = 60_000;

const demo = startDemoSession("prepick-e2e-chat-text-");

describe("the chat's words, in the demo page", () => {
  it(
    "does not send on the Enter that commits an IME composition (keyCode 229)",
    async () => {
      const page = await demo.open("refactorer");
      const box = composer(page);
      await box.fill("にほんご");
      // Safari commits a Japanese candidate with an Enter whose keyCode is 229.
      await box.evaluate((element) => {
        element.dispatchEvent(
          new KeyboardEvent("keydown", { key: "Enter", keyCode: 229, bubbles: true, cancelable: true }),
        );
        element.dispatchEvent(
          new KeyboardEvent("keydown", { key: "Enter", isComposing: true, bubbles: true, cancelable: true }),
        );
      });
      await page.waitForTimeout(300);
      expect(await page.locator('[data-slot="chat-message"]').count()).toBe(0);
      expect(await box.inputValue()).toBe("にほんご");
      await box.press("Enter");
      await page.locator('[data-slot="chat-message"][data-role="user"]').getByText("にほんご").waitFor();
    },
    FLOW_TIMEOUT,
  );

  it(
    "a message sent while the server is down stays in the box, out of the conversation, and Retry sends it",
    async () => {
      const page = await demo.open("refactorer");
      await page.route("**/agent/chat", (route) => route.abort("connectionrefused"));
      await sendMessage(page, "Refactor the parser");
      const alert = page.locator('[data-slot="agent-chat-error"]');
      await alert.waitFor();
      expect(await alert.textContent()).toContain(
        "Your message was not sent. Check your connection, then retry.",
      );
      expect(await alert.textContent()).not.toContain("Failed to fetch");
      expect(await composer(page).inputValue()).toBe("Refactor the parser");
      expect(await page.locator('[data-slot="chat-message"]').count()).toBe(0);

      await page.unroute("**/agent/chat");
      await alert.getByRole("button", { name: "Retry" }).click();
      await waitForQuestions(page);
      expect(await alert.count()).toBe(0);
      expect(await composer(page).inputValue()).toBe("");
      expect(await page.locator('[data-slot="chat-message"][data-role="user"]').count()).toBe(1);
    },
    FLOW_TIMEOUT,
  );

  it(
    "shows the agent's Markdown rendered, never its raw markers or the sentence written for the model",
    async () => {
      const page = await demo.open("refactorer");
      await sendMessage(page, "Refactor the parser");
      await waitForQuestions(page);
      await questionForm(page).getByRole("button", { name: "Skip: use the agent's picks" }).click();
      const reply = page.locator('[data-role="assistant"] [data-slot="chat-message-text"]').last();
      await reply.locator("li").first().waitFor({ timeout: 30_000 });
      await expect
        .poll(() => page.locator('[data-slot="agent-chat"]').getAttribute("data-status"))
        .toBe("ready");
      const text = (await reply.textContent()) ?? "";
      expect(text).toContain("You left the choices to me");
      expect(text).not.toContain("**");
      expect(text).not.toContain("left the choices to you");
      expect(text).not.toMatch(/; ;/);
      expect(await reply.locator('[data-streamdown="strong"]').count()).toBeGreaterThan(0);
    },
    FLOW_TIMEOUT,
  );

  it(
    "shows the whole chat in a second language the app ships, dates and numbers for its locale",
    async () => {
      const page = await demo.open("refactorer");
      const url = new URL(page.url());
      url.searchParams.set("lang", "de");
      await page.goto(url.href);
      const box = page.getByRole("textbox", { name: "Nachricht" });
      await box.fill("Refactor the parser");
      await box.press("Enter");
      const form = page.getByRole("form", { name: "Fragen des Agenten" });
      await form.getByText("Frage 1 von 3").waitFor();
      expect(await form.getByRole("button", { name: "Weiter" }).count()).toBe(1);
      expect(await form.getByText("vorausgewählt").count()).toBeGreaterThan(0);
      await form.getByRole("button", { name: /Überspringen/ }).click();
      await page.locator('[data-slot="elicitation-settled"]').getByText("Übersprungen").waitFor();
      expect(await page.getByRole("region", { name: "Unterhaltung" }).count()).toBe(1);
      // Another language, laid out right to left.
      url.searchParams.set("lang", "ar");
      await page.goto(url.href);
      const chat = page.locator('[data-slot="agent-chat"]');
      await chat.waitFor();
      expect(await chat.getAttribute("dir")).toBe("rtl");
      expect(await chat.evaluate((element) => getComputedStyle(element).direction)).toBe("rtl");
    },
    FLOW_TIMEOUT,
  );
});
