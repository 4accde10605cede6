// First: it configures zod before any module makes a schema.
import "./zod-config";
import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { DemoApp } from "./demo-app";
import "./demo.css";

const root = document.getElementById("root");
if (!root) throw new Error("demo/index.html has no #root element to render into");
// The first render is a transition: React renders it in slices of a few milliseconds, yielding to
// the browser between them, so a slow phone's main thread is never held for the whole page at once.
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <DemoApp />
    </StrictMode>,
  ),
);
