import type { ElicitationRequest } from "prepick/core";
import { createElicitation, type ElicitationBlock, useElicitationQuestion } from "prepick/hooks";
import { act, memo, Profiler } from "react";
import { createRoot } from "react-dom/client";
import { bookingIntake } from "../src/core/spec-examples";
import { installDom } from "./dom";
import { type BenchRow, figure } from "./result";

const KEYSTROKES = 50;

const request: ElicitationRequest = {
  source: "intake",
  questions: [...bookingIntake.questions],
};

/** Question subtrees committed since the last reset. */
const commits = { count: 0 };

const QuestionView = memo(function QuestionView({ block, id }: { block: ElicitationBlock; id: string }) {
  const question = useElicitationQuestion(block, id);
  return (
    <label>
      {question.prompt}
      <input readOnly value={question.value[0] ?? ""} />
      {question.error ? <span>{question.error}</span> : null}
    </label>
  );
});

/**
 * Renders: a keystroke in one question of a three-question set commits that question's subtree
 * only. Each question is a subtree reading its state through `useElicitationQuestion`, under its
 * own React Profiler; the count is question subtrees committed per keystroke.
 */
export async function keystrokeRenders(): Promise<BenchRow> {
  installDom();
  const block = createElicitation({ id: "intake-bench", request });
  const container = document.createElement("div");
  document.body.append(container);
  const root = createRoot(container);
  await act(async () =>
    root.render(
      <div>
        {request.questions.map((question) => (
          <Profiler
            key={question.id}
            id={question.id}
            onRender={() => {
              commits.count += 1;
            }}
          >
            <QuestionView block={block} id={question.id} />
          </Profiler>
        ))}
      </div>,
    ),
  );
  commits.count = 0;
  let typed = "";
  for (let index = 0; index < KEYSTROKES; index++) {
    typed += "a";
    await act(async () => block.setValue("contact", typed));
  }
  const perKeystroke = commits.count / KEYSTROKES;
  await act(async () => root.unmount());
  container.remove();
  return {
    id: "renders.per-keystroke",
    metric: "Renders: question subtrees committed per keystroke (3 questions, React Profiler)",
    baseline: "1 (the question typed in)",
    ours: figure(perKeystroke, "subtrees"),
    ratio: figure(perKeystroke, "×"),
    target: "= 1",
    pass: perKeystroke === 1,
  };
}
