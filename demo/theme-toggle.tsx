import { useEffect, useState } from "react";

const STORAGE_KEY = "prepick-demo-theme";

/** The theme the page starts in: the stored choice, else the system's. */
function initialDark(): boolean {
  const stored = window.localStorage.getItem(STORAGE_KEY);
  if (stored) return stored === "dark";
  return window.matchMedia("(prefers-color-scheme: dark)").matches;
}

/** Switches the page between light and dark by the `dark` class shadcn's theme reads; `label` is its name. */
export function ThemeToggle({ label }: { label: string }) {
  const [dark, setDark] = useState(initialDark);
  useEffect(() => {
    document.documentElement.classList.toggle("dark", dark);
    window.localStorage.setItem(STORAGE_KEY, dark ? "dark" : "light");
  }, [dark]);
  return (
    <button
      type="button"
      aria-pressed={dark}
      onClick={() => setDark((value) => !value)}
      className="inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded-md border px-2 text-sm hover:border-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring sm:px-3"
    >
      {/* A phone's header has room for the icon alone; the words stay its name. */}
      <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 sm:hidden" fill="currentColor">
        <path d="M6.2 1.5a6.5 6.5 0 1 0 8.3 8.3A5.5 5.5 0 0 1 6.2 1.5Z" />
      </svg>
      <span className="max-sm:sr-only">{label}</span>
    </button>
  );
}
