import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./database-errors.js";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("knows a database that is down by socket code, SQLSTATE, driver code or message, however wrapped", () => {
    expect(isDatabaseUnavailable(withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432"))).toBe(true);
    // Node 20 tries each address of localhost and throws an AggregateError without a code of its own.
    expect(isDatabaseUnavailable(new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")], ""))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(withCode("57P01", "terminating connection due to administrator command"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("57P03", "the database system is starting up"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("08006"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("CONNECTION_CLOSED"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isDatabaseUnavailable(new Error("operator store statements.latest failed", { cause: withCode("ECONNREFUSED") })),
    ).toBe(true);
  });
  it("leaves a wrong query, a constraint and anything else alone", () => {
    expect(isDatabaseUnavailable(withCode("42P01", 'relation "x" does not exist'))).toBe(false);
    expect(isDatabaseUnavailable(withCode("23505", "duplicate key value violates unique constraint"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});
