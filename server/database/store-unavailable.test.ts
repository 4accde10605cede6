import { describe, expect, it } from "vitest";
import { isStoreUnavailable } from "./store-unavailable";

describe("isStoreUnavailable", () => {
  it("knows a store that cannot be reached or cannot write from a statement that was wrong", () => {
    const unavailable = [
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
      Object.assign(new Error("the database system is starting up"), { code: "57P03" }),
      Object.assign(new Error("could not extend file: No space left on device"), { code: "53100" }),
      Object.assign(new Error("sorry, too many clients already"), { code: "53300" }),
      new Error("Connection terminated unexpectedly"),
      new Error("Client has encountered a connection error and is not queryable"),
      new Error("wrapped", { cause: Object.assign(new Error("write EPIPE"), { code: "EPIPE" }) }),
      new AggregateError([Object.assign(new Error("x"), { code: "ECONNREFUSED" })]),
    ];
    for (const error of unavailable) expect(isStoreUnavailable(error), error.message).toBe(true);
    const wrong = [
      Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: "23505" }),
      Object.assign(new Error('syntax error at or near "SELEC"'), { code: "42601" }),
      Object.assign(new Error("invalid input syntax for type integer"), { code: "22P02" }),
      new Error("The tool failed"),
      "ECONNREFUSED",
      undefined,
    ];
    for (const error of wrong) expect(isStoreUnavailable(error), String(error)).toBe(false);
  });
});
