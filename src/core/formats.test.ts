import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isEmail, isUri } from "./formats";

// The validator an MCP `Server` checks an elicitation's result with, unless it is given another.
const sdk = new AjvJsonSchemaValidator();
const sdkEmail = sdk.getValidator<string>({ type: "string", format: "email" });
const sdkUri = sdk.getValidator<string>({ type: "string", format: "uri" });

const EMAILS = [
  "ada@example.com",
  "a.b@example.co.uk",
  "a+tag@b.co",
  "A@EXAMPLE.COM",
  "o'neil@example.com",
  "a@xn--r8jz45g.jp",
  "jürgen@example.com",
  "a..b@example.com",
  ".a@example.com",
  "a.@example.com",
  "a@b",
  "a@-b.co",
  "a@b-.co",
  "a@b..co",
  "a b@c.co",
  '"quoted"@b.co',
  "a@[127.0.0.1]",
  "a@例え.jp",
  "ſ@example.com",
  "\u212a@example.com",
  "a@b.co\n",
  "team at example",
  "@example.com",
  "",
];

const URIS = [
  "https://example.com",
  "HTTPS://EXAMPLE.COM/A",
  "http://localhost:3000/x?y=1#z",
  "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9",
  "https://[::1]:8080/",
  "http://user:pass@host/",
  "mailto:ada@example.com",
  "urn:isbn:0451450523",
  "javascript:alert(1)",
  "ftp://files.example.com/a",
  "https://例え.jp/パス",
  "https://example.com/パス",
  "example.com",
  "https://exa mple.com",
  "https://a/b c",
  "http://a/%zz",
  "https:",
  "#fragment",
  "/path/only",
  "https://example.com/<script>",
  "data:text/html,<b>hi</b>",
  "http://a\\b",
  "",
];

describe("the email and url formats, held to the MCP SDK's own validator", () => {
  it.each(EMAILS)("takes %o as an email exactly when the SDK does", (value) => {
    expect(isEmail(value)).toBe(sdkEmail(value).valid);
  });

  it.each(URIS)("takes %o as a URI exactly when the SDK does", (value) => {
    expect(isUri(value)).toBe(sdkUri(value).valid);
  });

  it("refuses the values the SDK refused after our page had taken them", () => {
    expect([
      isEmail("jürgen@example.com"),
      isEmail("a..b@example.com"),
      isUri("https://例え.jp/パス"),
    ]).toEqual([false, false, false]);
    expect(isUri("https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9")).toBe(true);
  });

  it("agrees with the SDK on generated strings built from the characters that matter", () => {
    const characters = fc.constantFrom(
      ..."aZ09.-_~+!'@:/%?#[]() \u00fc\u4f8b\u017f".split(""),
      "http://",
      "https:",
      "mailto:",
      "xn--",
      "%41",
    );
    const candidate = fc.array(characters, { maxLength: 14 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(candidate, (value) => {
        expect([isEmail(value), isUri(value)]).toEqual([sdkEmail(value).valid, sdkUri(value).valid]);
      }),
      { numRuns: 3000 },
    );
  });
});
