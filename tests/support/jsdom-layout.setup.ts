// jsdom has no layout, so no ResizeObserver; Radix (inside the question form and an editable
// approval's form) measures with one. Files that render in jsdom get an observer that sees nothing.
if (typeof window !== "undefined") {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
