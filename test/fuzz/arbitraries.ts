/**
 * Generators of hostile input for the fuzz suite: values that are almost right (a block one digit
 * too long, an address with a bad checksum, a hash one character short), values that are wrong in
 * kind (unicode, JSON, SQL, huge numbers), and the right values now and then so that deeper code
 * runs too.
 */
import fc from "fast-check";

const hexChars = (n: number) =>
  fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF"), minLength: n, maxLength: n });

/** Strings a query parameter might carry. */
export const paramValue = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
    { weight: 2, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 3_000 }).map(String) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "latest",
        "",
        "0",
        "-1",
        "1e3",
        "0x10",
        "NaN",
        "Infinity",
        " 1",
        "1 ",
        "null",
        "undefined",
        "%00",
        "../../etc/passwd",
        "' OR 1=1 --",
        "1;DROP TABLE psm_swap",
        "1.5",
        "0.000000000000000000001",
      ),
    },
    { weight: 1, arbitrary: hexChars(40).map((h) => `0x${h}`) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 80 }).chain((n) => hexChars(n).map((h) => `0x${h}`)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 1e4 }))
        .map(([b, l]) => `${b}:${l}`),
    },
    { weight: 1, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) },
  );

/** A query string over `names` (the route's own parameters) plus, now and then, strangers. */
export const queryOf = (names: string[]): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.subarray(names).chain((picked) => fc.tuple(...picked.map((n) => paramValue().map((v) => [n, v] as const)))),
      fc.array(
        fc.tuple(
          fc.constantFrom("x", "block", "limit", "__proto__", "constructor", "amount[]", "a".repeat(300)),
          paramValue(),
        ),
        { maxLength: 2 },
      ),
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
    {
      weight: 1,
      arbitrary: fc.constantFrom("", "{", "[]", "null", '{"__proto__":{"x":1}}', '{"address":null}', "\u0000"),
    },
  );

export const method = (): fc.Arbitrary<string> =>
  fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");

export const contentType = (): fc.Arbitrary<string | undefined> =>
  fc.constantFrom(
    undefined,
    "application/json",
    "application/json; charset=utf-8",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/graphql-response+json",
    "APPLICATION/JSON",
  );

/** How deep a generated document or value nests: around the GraphQL nesting limit (64), or far past it. */
const nestingDepth = (): fc.Arbitrary<number> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 100 }) },
    { weight: 2, arbitrary: fc.integer({ min: 1_000, max: 7_000 }) },
  );

/** `depth` levels of `open`/`close` around `middle`, as deep as fits in `maxChars` (so the request reaches GraphQL, not the body limit). */
const nest = (open: string, middle: string, close: string, depth: number, maxChars: number) => {
  const n = Math.min(depth, Math.floor(maxChars / (open.length + close.length)));
  return `${open.repeat(n)}${middle}${close.repeat(n)}`;
};

/**
 * GraphQL documents of at most about `maxChars` whose `[`, `{` and `(` nest deep: list and object
 * literals in arguments, parentheses, selections, a mix; now and then cut short, so the brackets
 * never close.
 */
export const nestedDocument = (maxChars: number): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.constantFrom("list", "object", "paren", "mixed", "selection"),
      nestingDepth(),
      fc.option(fc.nat(), { freq: 4 }),
    )
    .map(([kind, depth, cut]) => {
      const doc =
        kind === "list"
          ? `{ account(address: ${nest("[", '"0x12"', "]", depth, maxChars)}) { address } }`
          : kind === "object"
            ? `{ psmSwaps(filter: ${nest("{psm: ", "MINT", "}", depth, maxChars)}) { nodes { id } } }`
            : kind === "paren"
              ? `{ __typename${nest("(", "", "", depth, maxChars)}`
              : kind === "mixed"
                ? `query { psmVolume(interval: DAY, psm: ${nest("[{a: ", "1", "}]", depth, maxChars)}) { __typename } }`
                : `{ ${nest("psms { ", "key", " }", depth, maxChars)} }`;
      return cut === null ? doc : doc.slice(0, cut % (doc.length + 1));
    });

/** A POST /graphql body (JSON text of at most about `maxChars`) whose variables nest deep, for list, object and scalar input types. */
export const nestedVariablesBody = (maxChars: number): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.constantFrom(
        "query($v: String!) { account(address: $v) { address } }",
        "query($v: [PsmKey!]) { psmVolume(psm: $v, interval: DAY) { __typename } }",
        "query($v: PsmSwapFilter) { psmSwaps(filter: $v) { nodes { id } } }",
        "query($v: RangeFilter) { psmVolume(range: $v, interval: DAY) { __typename } }",
        "{ __typename }",
      ),
      fc.constantFrom("list", "object"),
      nestingDepth(),
      fc.constantFrom("variable", "variables", "extensions"),
    )
    .map(([query, shape, depth, where]) => {
      // Written as text: JSON.stringify overflows the stack on such a value.
      const deep =
        shape === "list"
          ? nest("[", '"MINT"', "]", depth, maxChars - 200)
          : nest('{"psm":', '"MINT"', "}", depth, maxChars - 200);
      const q = JSON.stringify(query);
      return where === "variable" ? `{"query":${q},"variables":{"v":${deep}}}` : `{"query":${q},"${where}":${deep}}`;
    });

/** Body sizes around the service's 16 KiB limit, and well past it up to 10 MB (under the 16 MiB drain cap). */
export const bodySize = (limit: number): fc.Arbitrary<number> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: limit - 2, max: limit + 2 }) },
    { weight: 4, arbitrary: fc.integer({ min: limit + 3, max: 1024 * 1024 }) },
    { weight: 1, arbitrary: fc.constant(10 * 1024 * 1024) },
  );
