import type { Locator } from "playwright-core";

/** A colour property of an element whose contrast is measured. */
export type ColourProperty = "color" | "border-top-color" | "outline-color";

/** What {@link measureContrast} found: the ratio and the colours it came from, for a failure message. */
export interface ContrastMeasure {
  /** The WCAG contrast ratio, rounded to two decimals (1 to 21). */
  ratio: number;
  /** The measured colour as the browser computed it. */
  colour: string;
  /** The colour it sits on, composited from the ancestors' backgrounds, as `rgb(r g b)`. */
  against: string;
}

/**
 * Measures, in the page, the WCAG contrast ratio of the element's `property` against what lies
 * beside it: for text and borders the element's own background composited over its ancestors'
 * (the lower of that and the parent's, for borders, which touch both); for an outline, drawn
 * outside the element, the parent's. Colours are read through a canvas, so any CSS colour syntax
 * (oklch, alpha, `color-mix`) is resolved by the browser itself. Transitions running on the
 * element (a focus ring fading in) are let finish first, so the colour is the one that stays.
 */
export function measureContrast(locator: Locator, property: ColourProperty): Promise<ContrastMeasure> {
  return locator.evaluate(async (element, prop) => {
    await Promise.all(element.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
    const canvas = document.createElement("canvas");
    canvas.width = 1;
    canvas.height = 1;
    const paint = canvas.getContext("2d", { willReadFrequently: true });
    if (!paint) throw new Error("no 2d canvas");
    /** A CSS colour as sRGB 0–255 and alpha 0–1. */
    const rgba = (colour: string): [number, number, number, number] => {
      paint.clearRect(0, 0, 1, 1);
      paint.fillStyle = "#000";
      paint.fillStyle = colour;
      paint.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = paint.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const over = (top: [number, number, number, number], under: [number, number, number]) =>
      [0, 1, 2].map((i) => (top[i] as number) * top[3] + (under[i] as number) * (1 - top[3])) as [
        number,
        number,
        number,
      ];
    /** The opaque colour behind `start`'s content: its own background over its ancestors'. */
    const backdrop = (start: Element | null): [number, number, number] => {
      const layers: [number, number, number, number][] = [];
      for (let node = start; node; node = node.parentElement) {
        const layer = rgba(getComputedStyle(node).backgroundColor);
        if (layer[3] > 0) layers.push(layer);
        if (layer[3] >= 1) break;
      }
      let colour: [number, number, number] = [255, 255, 255];
      for (const layer of layers.reverse()) colour = over(layer, colour);
      return colour;
    };
    const luminance = ([r, g, b]: [number, number, number]) => {
      const channel = (value: number) => {
        const c = value / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const ratio = (a: [number, number, number], b: [number, number, number]) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (light + 0.05) / (dark + 0.05);
    };
    const colour = getComputedStyle(element).getPropertyValue(prop);
    const backgrounds =
      prop === "outline-color"
        ? [backdrop(element.parentElement)]
        : prop === "border-top-color"
          ? [backdrop(element), backdrop(element.parentElement)]
          : [backdrop(element)];
    const measured = backgrounds.map((background) => ({
      ratio: ratio(over(rgba(colour), background), background),
      background,
    }));
    const worst = measured.sort((a, b) => a.ratio - b.ratio)[0] as (typeof measured)[number];
    return {
      ratio: Math.round(worst.ratio * 100) / 100,
      colour,
      against: `rgb(${worst.background.map(Math.round).join(" ")})`,
    };
  }, property);
}
