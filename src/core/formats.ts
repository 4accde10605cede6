// The `email` and `url` formats, exactly as the MCP SDK checks them: its validator is Ajv with
// ajv-formats (3.0.1, MIT) in "full" mode, and an answer our page accepts must not fail a
// server's `elicitInput` there. The two expressions below are ajv-formats' own, copied as they
// are (its `uri` is RFC 3986's grammar, after jmrware.com's URI regex); formats.test.ts holds
// them to the SDK's validator over a table of values. Both are ASCII-only, as the SDK is:
// `jürgen@example.com` and `https://例え.jp/パス` are refused; the URL written with punycode and
// percent-escapes (`https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9`) passes.

const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

const URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

// ajv-formats' own guard: a URI needs a ":" or a "/" somewhere (the expression alone takes a
// bare fragment).
const NOT_URI_FRAGMENT = /\/|:/;

/** Whether `value` is an email address as the MCP SDK's `format: "email"` takes it. */
export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** Whether `value` is an absolute URI as the MCP SDK's `format: "uri"` takes it. */
export function isUri(value: string): boolean {
  return NOT_URI_FRAGMENT.test(value) && URI.test(value);
}

/** The schemes a `url` question may allow: web addresses, and mail where a question says so. */
export const URL_SCHEMES = ["http", "https", "mailto"] as const;

/** One of {@link URL_SCHEMES}. */
export type UrlScheme = (typeof URL_SCHEMES)[number];

/** What a `url` question allows when it names no `schemes`. */
export const DEFAULT_URL_SCHEMES: readonly UrlScheme[] = ["http", "https"];

/** The scheme a URI starts with, lowercased (`"https"`), or `undefined` when it has none. */
export function uriScheme(value: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
}
