import { applyEdits, loadPatternEngine } from "prepick/core";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentDefinitionError, checkAgents } from "./check-agents";
import { approvalQuestions, type EditableField, editableFields, emptiedAs } from "./editable-fields";
import type { ToolDefinition } from "./types";

beforeAll(async () => {
  await loadPatternEngine();
});

function tool(inputSchema: z.ZodType, editable: ToolDefinition["editable"] = true): ToolDefinition {
  return {
    name: "purge_cache",
    description: "Purges a cache.",
    inputSchema,
    editable,
    needsApproval: true,
    execute: () => null,
  };
}

function fieldsOf(schema: z.ZodType, editable: ToolDefinition["editable"] = true): EditableField[] {
  const checked = editableFields(tool(schema, editable));
  if ("problems" in checked) throw new Error(checked.problems.join("\n"));
  return checked.fields;
}

function problemsOf(schema: z.ZodType, editable: ToolDefinition["editable"] = true): string[] {
  const checked = editableFields(tool(schema, editable));
  return "problems" in checked ? checked.problems : [];
}

/** A schema of every kind of value a field may hold, empty or not. */
const reportSchema = z.object({
  hours: z.number(),
  dryRun: z.boolean(),
  tags: z.array(z.enum(["urgent", "weekly"])),
  note: z.string().optional(),
  notes: z.string().nullable(),
});

describe("a tool's input schema as questions", () => {
  it("maps each field onto the question model's types and rules, labels from title or description", () => {
    const fields = fieldsOf(
      z.object({
        cache: z
          .union([z.literal("pages").meta({ title: "Pages" }), z.literal("images").meta({ title: "Images" })])
          .describe("Which cache to purge?"),
        hours: z.number().int().min(1).max(72).meta({ title: "How far back?", description: "In hours." }),
        ratio: z.number().min(0).max(1).multipleOf(0.25),
        dryRun: z.boolean(),
        contact: z.email().optional(),
        site: z.url(),
        since: z.iso.date(),
        code: z
          .string()
          .regex(/^[A-Z]+$/)
          .min(2)
          .max(8),
        notes: z.string().max(500).nullable(),
        tags: z
          .array(z.enum(["urgent", "weekly"]))
          .min(1)
          .max(2),
        kind: z.enum(["soft", "hard"]).optional(),
      }),
    );
    expect(fields.map((field) => [field.question, field.empty])).toEqual([
      [
        {
          id: "cache",
          prompt: "Which cache to purge?",
          options: [
            { value: "pages", label: "Pages", hotkey: "a" },
            { value: "images", label: "Images", hotkey: "b" },
          ],
        },
        "omit",
      ],
      [
        {
          id: "hours",
          prompt: "How far back?",
          description: "In hours.",
          input: { type: "number", min: 1, max: 72, step: 1, required: true },
        },
        "omit",
      ],
      [
        {
          id: "ratio",
          prompt: "Ratio",
          input: { type: "number", min: 0, max: 1, step: 0.25, required: true },
        },
        "omit",
      ],
      [{ id: "dryRun", prompt: "Dry run", input: { type: "boolean", required: true } }, "omit"],
      [{ id: "contact", prompt: "Contact", input: { type: "email" } }, "omit"],
      [{ id: "site", prompt: "Site", input: { type: "url", required: true } }, "omit"],
      [{ id: "since", prompt: "Since", input: { type: "date", required: true } }, "omit"],
      [
        {
          id: "code",
          prompt: "Code",
          input: { type: "text", min: 2, max: 8, pattern: "[A-Z]+", required: true },
        },
        "omit",
      ],
      [{ id: "notes", prompt: "Notes", input: { type: "textarea", max: 500 } }, "null"],
      [
        {
          id: "tags",
          prompt: "Tags",
          options: [
            { value: "urgent", label: "urgent", hotkey: "a" },
            { value: "weekly", label: "weekly", hotkey: "b" },
          ],
          multiple: true,
          minItems: 1,
          maxItems: 2,
        },
        "omit",
      ],
      [
        {
          id: "kind",
          prompt: "Kind",
          options: [
            { value: "soft", label: "soft", hotkey: "a" },
            { value: "hard", label: "hard", hotkey: "b" },
          ],
          input: { type: "select", required: false },
        },
        "omit",
      ],
    ]);
  });

  it("asks only the fields editable names, and an unanchored pattern matches anywhere as it did", () => {
    const fields = fieldsOf(z.object({ a: z.string().regex(/x|y/), b: z.object({ c: z.string() }) }), ["a"]);
    expect(fields.map((field) => field.question.input?.pattern)).toEqual(["(?s:.*)(?:x|y)(?s:.*)"]);
  });

  it("pre-picks each question with the model's proposal, in canonical form", () => {
    const fields = fieldsOf(reportSchema);
    const questions = approvalQuestions(fields, { hours: 4.0, dryRun: false, tags: ["weekly"], notes: null });
    expect(questions.map((question) => [question.id, question.defaults])).toEqual([
      ["hours", ["4"]],
      ["dryRun", ["false"]],
      ["tags", ["weekly"]],
      ["note", []],
      ["notes", []],
    ]);
  });

  it("applies only the fields a person changed; an emptied field is left out, or null where the schema allows it", () => {
    const fields = fieldsOf(reportSchema);
    const proposed = { hours: 4, dryRun: false, tags: ["weekly", "urgent"], note: "n", notes: "x", extra: 1 };
    const questions = approvalQuestions(fields, proposed);
    expect(
      applyEdits(
        questions,
        proposed,
        {
          hours: ["04"],
          dryRun: ["true"],
          tags: ["urgent", "weekly"],
          note: [],
          notes: [""],
        },
        emptiedAs(fields),
      ),
    ).toEqual({
      input: { hours: 4, dryRun: true, tags: ["weekly", "urgent"], notes: null, extra: 1 },
      edited: ["dryRun", "note", "notes"],
    });
  });
});

describe("a schema a question cannot express", () => {
  it("is refused field by field, saying why", () => {
    expect(
      problemsOf(
        z.object({
          filters: z.object({ path: z.string() }),
          when: z.iso.datetime(),
          ratio: z.number().positive(),
          mode: z.union([z.literal(1), z.literal(2)]),
          list: z.array(z.string()),
          fixed: z.literal("x"),
          any: z.unknown(),
          code: z.string().regex(/^(a+)\1$/),
        }),
      ),
    ).toEqual([
      'editable field "filters" cannot be a question: an object cannot be asked as one question (list the fields a person may edit)',
      'editable field "when" cannot be a question: a date-time with a time zone cannot be asked: a question takes a local date and time',
      'editable field "ratio" cannot be a question: an exclusive minimum on a number cannot be asked (use .min(), or .int())',
      'editable field "mode" cannot be a question: a union other than string constants cannot be asked as one question',
      'editable field "list" cannot be a question: only an array of string choices can be asked (as checkboxes)',
      'editable field "fixed" cannot be a question: a constant has nothing to edit',
      'editable field "any" cannot be a question: a value of type "any" cannot be asked as a question',
      // A pattern RE2 cannot run (a backreference) is refused as any question's would be.
      expect.stringMatching(
        /^editable field "code" cannot be a question: questions\["code"\]\.input\.pattern is not a valid pattern/,
      ),
    ]);
  });

  it("is refused when the agents load, naming the agent, the tool and the field", () => {
    const agent = {
      name: "operator",
      systemPrompt: "You operate.",
      tools: [tool(z.object({ cache: z.string(), filters: z.object({}) }), ["cache", "filters", "missing"])],
    };
    expect(() => checkAgents([agent])).toThrow(AgentDefinitionError);
    try {
      checkAgents([agent]);
    } catch (error) {
      expect((error as AgentDefinitionError).problems).toEqual([
        'Agent "operator": tool "purge_cache" editable field "filters" cannot be a question: an object cannot be asked as one question (list the fields a person may edit)',
        'Agent "operator": tool "purge_cache" editable field "missing" is not in its inputSchema (cache, filters)',
      ]);
    }
  });

  it("refuses a schema with a transform: the edited input is parsed again before it runs", () => {
    expect(problemsOf(z.object({ a: z.string().transform((text) => text.length) }))).toEqual([
      "editable needs an inputSchema whose parsed input parses again the same, without transforms: Transforms cannot be represented in JSON Schema",
    ]);
  });

  it("refuses an editable tool nobody approves, and a schema that is not an object", () => {
    const never = { ...tool(z.object({ a: z.string() })), needsApproval: false };
    const scalar = tool(z.string());
    expect(() => checkAgents([{ name: "a", systemPrompt: "", tools: [never] }])).toThrow(
      'Agent "a": tool "purge_cache" is editable but never needs approval, so nobody could edit it: set needsApproval',
    );
    expect(() => checkAgents([{ name: "a", systemPrompt: "", tools: [scalar] }])).toThrow(
      'Agent "a": tool "purge_cache" editable needs an object inputSchema (z.object({ … }))',
    );
    // A module policy may require approval of a tool that does not ask for it itself.
    const [agent] = checkAgents([{ name: "a", systemPrompt: "", tools: [never] }], {
      approvalPolicy: () => true,
    });
    expect(agent?.editing.get("purge_cache")?.map((field) => field.question.id)).toEqual(["a"]);
  });
});
