import { describe, expect, it } from "vitest";
import { LIMITS, nestingError } from "./limits.js";
import { createGraphQL } from "./yoga.js";

const yoga = createGraphQL({ db: {} } as never);
const ask = async (query: string) => {
  const res = await yoga.fetch(
    new Request("http://x/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query }),
    }),
  );
  return (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
};

describe("chain-read report limit", () => {
  it("refuses more than two chain-read reports per operation, aliases counted, before anything runs", async () => {
    const aliased = `{ ${Array.from({ length: 15 }, (_, i) => `r${i}: reserves { blockNumber }`).join(" ")} }`;
    const out = await ask(aliased);
    expect(out.errors?.[0]?.message).toMatch(/15 chain-read reports/);
    expect(out.errors?.[0]?.extensions?.code).toBe("COST_LIMIT");
    expect(
      (await ask("{ a: reserves { blockNumber } b: stats { blockNumber } c: stats { blockNumber } }")).errors?.[0]
        ?.message,
    ).toMatch(/3 chain-read reports/);
  });
});

describe("GraphQL Armor's limits", () => {
  it("answer an error with a stable code per limit: depth, cost, aliases, tokens", async () => {
    const nested = (depth: number): string =>
      depth === 0 ? "id" : `psmSwaps(first: 1) { nodes { ${nested(depth - 1)} } }`;
    const cases = {
      depth: `{ ${nested(6)} }`,
      aliases: `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: psmSwaps(first: 1) { nodes { id } }`).join(" ")} }`,
      tokens: `{ ${Array.from({ length: 2_100 }, () => "__typename").join(" ")} }`,
      cost: `{ ${Array.from({ length: 12 }, (_, i) => `p${i}: psmSwaps(first: 500) { nodes { id psm { key } user { address } } }`).join(" ")} }`,
    };
    const codes = { depth: "DEPTH_LIMIT", aliases: "ALIAS_LIMIT", tokens: "TOKEN_LIMIT", cost: "COST_LIMIT" };
    for (const [limit, query] of Object.entries(cases)) {
      const out = await ask(query);
      expect(out.errors?.length, limit).toBeGreaterThan(0);
      expect({ limit, code: out.errors?.[0]?.extensions?.code }).toEqual({
        limit,
        code: codes[limit as keyof typeof codes],
      });
    }
  });
});

describe("nesting limit", () => {
  type Out = {
    status: number;
    body: { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] };
  };
  const post = async (body: string, accept = "application/json"): Promise<Out> => {
    const res = await yoga.fetch(
      new Request("http://x/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept },
        body,
      }),
    );
    return { status: res.status, body: await res.json() };
  };
  const query = (q: string, accept?: string) => post(JSON.stringify({ query: q }), accept);
  const listLiteral = (depth: number) => `${"[".repeat(depth)}"a"${"]".repeat(depth)}`;
  const objectLiteral = (depth: number) => `${"{a: ".repeat(depth)}1${"}".repeat(depth)}`;
  const code = (out: Out) => out.body.errors?.[0]?.extensions?.code;

  it("refuses a list literal 5,000 deep (graphql-js's recursive parser overflowed: a 500) with NESTING_LIMIT, naming the limit", async () => {
    const out = await query(`{ account(address: ${listLiteral(5_000)}) { address } }`);
    expect(code(out)).toBe("NESTING_LIMIT");
    expect(out.body.errors?.[0]?.message).toContain(`Nesting limit of ${LIMITS.maxNesting} exceeded`);
    const viaGet = await yoga.fetch(
      new Request(
        `http://x/graphql?${new URLSearchParams({ query: `{ account(address: ${listLiteral(5_000)}) { address } }` })}`,
        { headers: { accept: "application/json" } },
      ),
    );
    expect(viaGet.status).toBe(200);
    expect(((await viaGet.json()) as Out["body"]).errors?.[0]?.extensions?.code).toBe("NESTING_LIMIT");
  });

  it("answers with the status yoga gives a syntax error: 200 for application/json, 400 for application/graphql-response+json", async () => {
    for (const accept of ["application/json", "application/graphql-response+json"]) {
      const syntax = await query("{ account(", accept);
      expect(code(syntax)).toBe("GRAPHQL_PARSE_FAILED");
      const nested = await query(`{ account(address: ${listLiteral(5_000)}) { address } }`, accept);
      expect({ accept, status: nested.status, code: code(nested) }).toEqual({
        accept,
        status: syntax.status,
        code: "NESTING_LIMIT",
      });
    }
  });

  it("refuses an object literal 5,000 deep, and `(` counts too", async () => {
    expect(code(await query(`{ psmSwaps(filter: ${objectLiteral(5_000)}) { nodes { id } } }`))).toBe("NESTING_LIMIT");
    expect(code(await query(`{ __typename ${"(".repeat(5_000)}`))).toBe("NESTING_LIMIT");
  });

  it("lets a document exactly at the limit reach validation; one more level is refused", async () => {
    // `{` and `(` of the field open 2 levels; the literal opens the rest.
    const at = await query(`{ account(address: ${listLiteral(LIMITS.maxNesting - 2)}) { address } }`);
    expect(at.status).toBeLessThan(500);
    expect(code(at)).not.toBe("NESTING_LIMIT");
    expect(at.body.errors?.[0]?.message).toMatch(/String cannot represent a non string value/);
    const atObject = await query(`{ psmSwaps(filter: ${objectLiteral(LIMITS.maxNesting - 2)}) { nodes { id } } }`);
    expect(code(atObject)).not.toBe("NESTING_LIMIT");
    expect(atObject.body.errors?.[0]?.message).toMatch(/not defined by type "PsmSwapFilter"/);
    expect(code(await query(`{ account(address: ${listLiteral(LIMITS.maxNesting - 1)}) { address } }`))).toBe(
      "NESTING_LIMIT",
    );
  });

  it("refuses variables nested 5,000 deep (lists and objects, list and object input types) as invalid values, never a 500", async () => {
    // JSON.stringify would overflow on such a value: the body is written as text.
    const list = listLiteral(5_000).replaceAll("a", '"a"').replace('""a""', '"a"');
    const object = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;
    const cases = [
      { label: "String!", q: "query($v: String!) { account(address: $v) { address } }" },
      { label: "[PsmKey!]", q: "query($v: [PsmKey!]) { psmVolume(psm: $v, interval: DAY) { __typename } }" },
      { label: "PsmSwapFilter", q: "query($v: PsmSwapFilter) { psmSwaps(filter: $v) { nodes { id } } }" },
    ];
    for (const { label, q } of cases) {
      for (const [shape, value] of [
        ["list", list],
        ["object", object],
      ]) {
        const out = await post(`{"query":${JSON.stringify(q)},"variables":{"v":${value}}}`);
        expect({ label, shape, status: out.status }).toEqual({ label, shape, status: 400 });
        expect(out.body.errors?.[0]?.message, `${label} ${shape}`).toMatch(/^Variable "\$v" got invalid value/);
        expect(code(out), `${label} ${shape}`).not.toBe("INTERNAL_SERVER_ERROR");
      }
    }
    // Deep JSON that no variable reads (the variables or extensions object itself) is ignored.
    for (const key of ["variables", "extensions"])
      expect((await post(`{"query":"{ __typename }","${key}":${object}}`)).body.data).toEqual({ __typename: "Query" });
  });
});

describe("nestingError", () => {
  it("counts [, { and ( open at once, not brackets inside strings, block strings or comments", () => {
    expect(nestingError("{ a(x: [[1]]) }", 4)).toBeNull();
    expect(nestingError("{ a(x: [[1]]) }", 3)?.extensions.code).toBe("NESTING_LIMIT");
    expect(nestingError(`{ a(x: "[[[[[[", y: """{{{{{{""") # ((((((\n }`, 2)).toBeNull();
    expect(nestingError("{ a { b } c { d } e { f } }", 2)).toBeNull();
  });
  it("points at the bracket that went over", () => {
    expect(nestingError("{ a(x: [[1]]) }", 3)?.locations).toEqual([{ line: 1, column: 9 }]);
  });
  it("leaves a document the lexer cannot read to the parser (its syntax error is the answer)", () => {
    expect(nestingError('{ a(x: "unterminated')).toBeNull();
    expect(nestingError("{ \u0001 [[[[")).toBeNull();
  });
});

describe("a malformed BigInt variable", () => {
  it("is the caller's error (BAD_USER_INPUT), not a masked internal error", async () => {
    const res = await yoga.fetch(
      new Request("http://x/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          query: "query($b: BigInt) { reserves(block: $b) { blockNumber } }",
          variables: { b: "12x" },
        }),
      }),
    );
    const out = (await res.json()) as { errors?: { message: string; extensions?: { code?: string } }[] };
    expect(res.status).toBeLessThan(500);
    expect(out.errors?.[0]?.message).toMatch(/BigInt must be a decimal string/);
    expect(out.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});
