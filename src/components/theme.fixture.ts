import { expect } from "storybook/test";

/** A CSS colour's lightness from 0 (black) to 1 (white), read through a canvas in any colour space. */
function lightness(color: string): number {
  const context = document.createElement("canvas").getContext("2d");
  if (!context) throw new Error("no 2D canvas");
  context.fillStyle = color;
  context.fillRect(0, 0, 1, 1);
  const [red = 0, green = 0, blue = 0] = context.getImageData(0, 0, 1, 1).data;
  return (Math.max(red, green, blue) + Math.min(red, green, blue)) / 2 / 255;
}

/**
 * Fails unless a story's dark theme took: the root carries shadcn's `dark` class and `element`'s
 * text is light, as it is on the dark surfaces (axe then checks its contrast against them).
 */
export async function expectDarkTheme(element: Element): Promise<void> {
  await expect(document.documentElement).toHaveClass("dark");
  await expect(lightness(getComputedStyle(element).color)).toBeGreaterThan(0.6);
}
