/**
 * Generators of hostile input for the fuzz suite: values that are almost right (a block one digit
 * too long, an address with a bad checksum, a hash one character short), values that are wrong in
 * kind (unicode, JSON, SQL, huge numbers), and the right values now and then so that deeper code
 * runs too.
 */
import fc from "fast-check";

const hexChars = (n: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: n, maxLength: n });

/** Strings a query parameter might carry. */
export const paramValue = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
    { weight: 2, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 3_000 }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom("latest", "", "0", "-1", "1e3", "0x10", "NaN", "Infinity", " 1", "1 ", "null", "undefined", "%00", "../../etc/passwd", "' OR 1=1 --", "1;DROP TABLE psm_swap", "1.5", "0.000000000000000000001") },
    { weight: 1, arbitrary: hexChars(40).map((h) => `0x${h}`) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 80 }).chain((n) => hexChars(n).map((h) => `0x${h}`)) },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 1e4 })).map(([b, l]) => `${b}:${l}`) },
    { weight: 1, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) },
  );

/** A query string over `names` (the route's own parameters) plus, now and then, strangers. */
export const queryOf = (names: string[]): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.subarray(names).chain((picked) => fc.tuple(...picked.map((n) => paramValue().map((v) => [n, v] as const)))),
      fc.array(fc.tuple(fc.constantFrom("x", "block", "limit", "__proto__", "constructor", "amount[]", "a".repeat(300)), paramValue()), { maxLength: 2 }),
    )
    .map(([own, extra]) => {
      const q = new URLSearchParams();
      for (const [k, v] of [...own, ...extra]) q.append(k, v);
      return q.size ? `?${q}` : "";
    });

/** Any JSON value, or text that is not JSON at all. */
export const bodyText = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.json({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: fc.constantFrom("", "{", "[]", "null", '{"__proto__":{"x":1}}', '{"address":null}', "\u0000") },
  );

export const method = (): fc.Arbitrary<string> => fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");

export const contentType = (): fc.Arbitrary<string | undefined> =>
  fc.constantFrom(undefined, "application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/graphql-response+json", "APPLICATION/JSON");
