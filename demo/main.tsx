// First: it configures zod before any module makes a schema.
import "./zod-config";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { DemoApp } from "./demo-app";
import "./demo.css";

const root = document.getElementById("root");
if (!root) throw new Error("demo/index.html has no #root element to render into");
createRoot(root).render(
  <StrictMode>
    <DemoApp />
  </StrictMode>,
);
