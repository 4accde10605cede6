import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, it } from "vitest";
import { validateAnswers } from "@/lib/prepick/core/answers";
import type { Question } from "@/lib/prepick/core/question";
import { mcpElicitationToRequest } from "@/lib/prepick/transport/adapters/mcp-elicitation";

// The validator `Server.elicitInput` checks every accepted `content` with, as the SDK builds it.
const sdk = new AjvJsonSchemaValidator();

function sdkAccepts(format: "email" | "uri", value: string): boolean {
  const check = sdk.getValidator<{ value: string }>({
    type: "object",
    properties: { value: { type: "string", format } },
  });
  return check({ value }).valid;
}

function formIssues(format: "email" | "uri", value: string) {
  const parsed = mcpElicitationToRequest({
    message: "m",
    requestedSchema: { type: "object", properties: { value: { type: "string", format } } },
  });
  if (!parsed.success) throw new Error("expected questions");
  const questions: Question[] = parsed.request.questions;
  return validateAnswers(questions, { value: [value] });
}

function formAccepts(format: "email" | "uri", value: string): boolean {
  return formIssues(format, value).length === 0;
}

/** The schemes Prepick's url rule allows at most; MCP's `uri` takes any. */
const WEB_AND_MAIL = /^(?:https?|mailto):/i;

const emails = [
  "ada@example.com",
  "a.b+tag@example.co.uk",
  "jürgen@example.com",
  "a..b@example.com",
  ".a@example.com",
  "a.@example.com",
  "a@b",
  "a@-b.com",
  "a@b-.com",
  "a@b..com",
  "a@例え.jp",
  "a b@example.com",
  "a@example.com.",
  '"quoted"@example.com',
  "user@[127.0.0.1]",
  "o'hara@example.com",
  "a@b.c",
  "x@localhost",
  "@example.com",
  "a@",
];

const uris = [
  "https://example.com",
  "https://example.com/path?q=1#frag",
  "https://例え.jp/パス",
  "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9",
  "http://[::1]:8080/",
  "mailto:ada@example.com",
  "urn:isbn:0451450523",
  "file:///etc/hosts",
  "ftp://user:pass@host/file",
  "https://exa mple.com",
  "https://example.com/a b",
  "//example.com",
  "/relative/path",
  "example.com",
  "https://example.com/%zz",
  "http://",
  "https:",
  "a:b",
  "javascript:alert(1)",
  "HTTPS://EXAMPLE.COM",
  "mailto:",
  "https://example.com:99999/",
  "http://a/b/c/../d",
];

describe("MCP's email and uri formats against the validator Server.elicitInput uses", () => {
  it.each(emails)("email %j", (value) => {
    expect(formAccepts("email", value)).toBe(sdkAccepts("email", value));
  });

  it.each(uris.filter((value) => WEB_AND_MAIL.test(value) || !/^[a-z][a-z0-9+.-]*:/i.test(value)))(
    "uri %j: the form agrees with the SDK",
    (value) => {
      expect(formAccepts("uri", value)).toBe(sdkAccepts("uri", value));
    },
  );

  it.each(uris.filter((value) => /^[a-z][a-z0-9+.-]*:/i.test(value) && !WEB_AND_MAIL.test(value)))(
    "uri %j: another scheme is refused by the scheme rule, never sent",
    (value) => {
      const issues = formIssues("uri", value);
      expect(issues.map((issue) => issue.rule)).toEqual([sdkAccepts("uri", value) ? "scheme" : "url"]);
    },
  );

  it("the table holds values on both sides of each line", () => {
    for (const [format, values] of [
      ["email", emails],
      ["uri", uris],
    ] as const) {
      const verdicts = new Set(values.map((value) => sdkAccepts(format, value)));
      expect(verdicts).toEqual(new Set([true, false]));
    }
  });
});
