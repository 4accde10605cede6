import { JSDOM } from "jsdom";

/** Gives this process a browser-like global document once, for rendering React in a benchmark. */
export function installDom(): void {
  if (typeof globalThis.document !== "undefined") return;
  const dom = new JSDOM("<!doctype html><html><body></body></html>", { pretendToBeVisual: true });
  const globals = globalThis as unknown as Record<string, unknown>;
  for (const key of [
    "window",
    "document",
    "navigator",
    "HTMLElement",
    "Node",
    "Event",
    "KeyboardEvent",
    "MutationObserver",
    "getComputedStyle",
    "requestAnimationFrame",
    "cancelAnimationFrame",
  ]) {
    if (globals[key] === undefined) globals[key] = (dom.window as unknown as Record<string, unknown>)[key];
  }
  globals.IS_REACT_ACT_ENVIRONMENT = true;
}
