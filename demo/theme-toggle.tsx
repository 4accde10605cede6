import { useEffect, useState } from "react";

const STORAGE_KEY = "prepick-demo-theme";

/** The theme the page starts in: the stored choice, else the system's. */
function initialDark(): boolean {
  const stored = window.localStorage.getItem(STORAGE_KEY);
  if (stored) return stored === "dark";
  return window.matchMedia("(prefers-color-scheme: dark)").matches;
}

/** Switches the page between light and dark by the `dark` class shadcn's theme reads. */
export function ThemeToggle() {
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
      className="rounded-md border px-3 py-1.5 text-sm hover:border-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
    >
      Dark mode
    </button>
  );
}
