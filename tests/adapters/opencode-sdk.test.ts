import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createOpencodeClient,
  type EventQuestionAsked,
  type EventQuestionReplied,
  type EventQuestionV2Asked,
  type OpencodeClient,
  type QuestionRequest,
} from "@opencode-ai/sdk/v2";
import { describe, expect, expectTypeOf, it } from "vitest";
import { createElicitation } from "@/hooks/create-elicitation";
import {
  type OpenCodeAnswer,
  openCodeQuestionToRequest,
  openCodeReplyToOutcome,
  outcomeToOpenCodeAnswer,
} from "@/lib/prepick/transport/adapters/opencode-question";

type ReplyAnswers = NonNullable<Parameters<OpencodeClient["question"]["reply"]>[0]["answers"]>;

function asked(questions: QuestionRequest["questions"]): EventQuestionAsked["properties"] {
  return { id: "que_1", sessionID: "ses_1", questions };
}

function parse(request: QuestionRequest) {
  const parsed = openCodeQuestionToRequest(request);
  if (!parsed.success) throw new Error(parsed.issues.map((issue) => issue.message).join("\n"));
  return parsed.request;
}

describe("the OpenCode adapter against @opencode-ai/sdk/v2", () => {
  it("takes the SDK's question request and event properties, and replies in the shape its client sends", () => {
    expectTypeOf<QuestionRequest>().toExtend<Parameters<typeof openCodeQuestionToRequest>[0]>();
    expectTypeOf<EventQuestionAsked["properties"]>().toExtend<
      Parameters<typeof openCodeQuestionToRequest>[0]
    >();
    expectTypeOf<EventQuestionV2Asked["properties"]>().toExtend<
      Parameters<typeof openCodeQuestionToRequest>[0]
    >();
    expectTypeOf<Extract<OpenCodeAnswer, { type: "reply" }>["answers"]>().toExtend<ReplyAnswers>();
    expectTypeOf<EventQuestionReplied["properties"]["answers"]>().toExtend<
      Parameters<typeof openCodeReplyToOutcome>[1]
    >();
  });

  it("asks a question without options as a text question and replies with what the person typed", async () => {
    const request = parse(
      asked([{ question: "What should the release be called?", header: "Name", options: [] }]),
    );
    expect(request.questions[0]).toMatchObject({ id: "q1", input: { type: "text" } });
    expect(request.questions[0]?.options).toBeUndefined();

    const untouched = createElicitation({ id: "que_1", request });
    await untouched.submit();
    expect(outcomeToOpenCodeAnswer(request, untouched.getSnapshot().settled?.outcome)).toEqual({
      type: "reply",
      answers: [[]],
    });

    const typed = createElicitation({ id: "que_1", request });
    typed.setValue("q1", "Aurora");
    await typed.submit();
    const answer = outcomeToOpenCodeAnswer(request, typed.getSnapshot().settled?.outcome);
    expect(answer).toEqual({ type: "reply", answers: [["Aurora"]] });
    expect(openCodeReplyToOutcome(request, [["Aurora"]]).answers).toEqual({ q1: ["Aurora"] });
  });

  it("gives options with the same label distinct values, and replies with the label", async () => {
    const request = parse(
      asked([
        {
          question: "Deploy now?",
          header: "Deploy",
          options: [
            { label: "Yes", description: "To staging" },
            { label: "Yes", description: "To production" },
            { label: "Yes #2", description: "A label that looks like a made-up value" },
            { label: "No", description: "" },
          ],
        },
        {
          question: "Which regions?",
          header: "Regions",
          multiple: true,
          custom: false,
          options: [
            { label: "EU", description: "Frankfurt" },
            { label: "EU", description: "Dublin" },
          ],
        },
      ]),
    );
    const [deploy, regions] = request.questions;
    expect(deploy?.options?.map((option) => [option.value, option.label, option.description])).toEqual([
      ["Yes", "Yes", "To staging"],
      ["Yes #3", "Yes", "To production"],
      ["Yes #2", "Yes #2", "A label that looks like a made-up value"],
      ["No", "No", undefined],
    ]);
    expect(regions?.options?.map((option) => option.value)).toEqual(["EU", "EU #2"]);

    const block = createElicitation({ id: "que_1", request });
    block.setValue("q1", "Yes #3");
    block.toggle("q2", "EU #2");
    await block.submit();
    const outcome = block.getSnapshot().settled?.outcome;
    expect(outcome?.answers).toEqual({ q1: ["Yes #3"], q2: ["EU", "EU #2"] });
    expect(outcomeToOpenCodeAnswer(request, outcome)).toEqual({ type: "reply", answers: [["Yes"], ["EU"]] });
    expect(openCodeReplyToOutcome(request, [["Yes #2"], ["EU"]]).answers).toEqual({
      q1: ["Yes #2"],
      q2: ["EU"],
    });
  });

  it("the SDK's own client sends our reply as OpenCode's POST /question/{id}/reply", async () => {
    const received: { method?: string; url?: string; body: unknown }[] = [];
    const server = createServer((incoming, outgoing) => {
      let text = "";
      incoming.on("data", (chunk) => {
        text += chunk;
      });
      incoming.on("end", () => {
        received.push({
          method: incoming.method,
          url: incoming.url,
          body: text ? JSON.parse(text) : undefined,
        });
        outgoing.writeHead(200, { "content-type": "application/json" }).end("true");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = createOpencodeClient({ baseUrl: `http://127.0.0.1:${port}` });
      const request = parse(
        asked([
          { question: "Name?", header: "Name", options: [] },
          {
            question: "Go?",
            header: "Go",
            options: [
              { label: "Go", description: "" },
              { label: "Go", description: "twice" },
            ],
          },
        ]),
      );
      const block = createElicitation({ id: "que_1", request });
      block.setValue("q1", "Aurora");
      block.setValue("q2", "Go #2");
      await block.submit();
      const answer = outcomeToOpenCodeAnswer(request, block.getSnapshot().settled?.outcome);
      if (answer.type !== "reply") throw new Error("expected a reply");
      await client.question.reply({ requestID: "que_1", answers: answer.answers });
      expect(received).toEqual([
        { method: "POST", url: "/question/que_1/reply", body: { answers: [["Aurora"], ["Go"]] } },
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
