// jsdom ships no types and @types/jsdom is not installed; this covers what bench/dom.ts and the
// hostile-pattern page worker (tests/faults/support) use.
declare module "jsdom" {
  /** A browser-like window over an HTML document. */
  export class JSDOM {
    constructor(html?: string, options?: { pretendToBeVisual?: boolean; url?: string });
    /** The document's window. */
    readonly window: Window & typeof globalThis;
  }
}
