/**
 * Issue 29, item 4, against the indexed devnet: `/api/export/<connection>.csv` and `.ndjson` hold
 * exactly the rows and values GraphQL pages through for the same filter, order and block (as
 * `where` JSON or as parameters), with a header naming units and an attachment's headers; bad
 * input is a 400 JSON error.
 */
import { describe, expect, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();
type Node = Record<string, unknown>;

async function gqlWalk(field: string, args: string, selection: string): Promise<Node[]> {
  const nodes: Node[] = [];
  let after: string | null = null;
  do {
    const res = await fetch(`${s.indexerUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `query($after: String) { ${field}(${args} first: 200, after: $after) { nodes { ${selection} } pageInfo { hasNextPage endCursor } } }`,
        variables: { after },
      }),
    });
    const body = (await res.json()) as { data: Record<string, any>; errors?: unknown };
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    nodes.push(...body.data[field].nodes);
    after = body.data[field].pageInfo.hasNextPage ? body.data[field].pageInfo.endCursor : null;
  } while (after);
  return nodes;
}

/** RFC 4180: quoted cells may hold commas, quotes (doubled) and newlines. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += ch;
  }
  return rows;
}

const SWAP_FIELDS = "id direction usdcAmount kusdAmount fee feeBps kusdBurned txHash blockNumber logIndex timestamp";
/** A GraphQL PsmSwap as the export prints it (psm and user are objects in GraphQL). */
const asExported = ({ psm, user, ...n }: Node): Node => ({
  ...n,
  psmKey: (psm as { key: string }).key,
  psm: (psm as { address: string }).address,
  user: (user as { address: string }).address,
});

describe("exports equal the GraphQL answer", () => {
  it("psmSwaps: NDJSON and CSV hold GraphQL's rows and values for the same where, order and block", async () => {
    const head = await s.caughtUp();
    const where = { direction: "redeem", kusdAmount_gte: "100000000000000000000" };
    const nodes = (
      await gqlWalk(
        "psmSwaps",
        `block: { number: "${head}" }, where: { direction: redeem, kusdAmount_gte: "100000000000000000000" }, orderBy: kusdAmount, orderDirection: desc,`,
        `${SWAP_FIELDS} psm { key address } user { address }`,
      )
    ).map(asExported);
    expect(nodes.length).toBeGreaterThan(10);
    const query = `where=${encodeURIComponent(JSON.stringify(where))}&orderBy=kusdAmount&orderDirection=desc&block=${head}`;

    const ndjson = await fetch(`${s.indexerUrl}/api/export/psmSwaps.ndjson?${query}`);
    expect(ndjson.status).toBe(200);
    expect(ndjson.headers.get("content-type")).toBe("application/x-ndjson");
    expect(ndjson.headers.get("content-disposition")).toBe(`attachment; filename="psmSwaps-${head}.ndjson"`);
    const lines = (await ndjson.text()).split("\n").filter(Boolean);
    expect(lines.map((l) => JSON.parse(l))).toEqual(nodes);

    const csv = await fetch(`${s.indexerUrl}/api/export/psmSwaps.csv?${query}`);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const [header, ...rows] = parseCsv(await csv.text());
    expect(header).toContain("usdcAmount (USDC, 6 decimals raw)");
    expect(header).toContain("kusdAmount (kUSD, 18 decimals raw)");
    const names = header!.map((h) => h.replace(/ \(.*$/, ""));
    expect(rows).toHaveLength(nodes.length);
    expect(rows.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]])))).toEqual(
      nodes.map((n) => Object.fromEntries(names.map((k) => [k, String(n[k])]))),
    );
  });

  it("registryTransfers: filters as parameters (field, _in, fromBlock/toBlock) equal GraphQL's where", async () => {
    const end = s.deployment.chains.base.historyEndBlock;
    const nodes = await gqlWalk(
      "registryTransfers",
      `where: { tokenSymbol_in: ["USDC", "kUSD"], classification_not: "inbound", blockNumber_gte: "100", blockNumber_lte: "${end}" },`,
      "id amount classification",
    );
    expect(nodes.length).toBeGreaterThan(5);
    const res = await fetch(
      `${s.indexerUrl}/api/export/registryTransfers.ndjson?tokenSymbol_in=USDC,kUSD&classification_not=inbound&fromBlock=100&toBlock=${end}`,
    );
    const rows = (await res.text())
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Node);
    expect(rows.map((r) => ({ id: r.id, amount: r.amount, classification: r.classification }))).toEqual(nodes);
  });

  it("shareBalances (a state entity) at the head: the same rows GraphQL lists", async () => {
    await s.caughtUp();
    const nodes = await gqlWalk(
      "shareBalances",
      `where: { shares_gt: "0" }, orderBy: shares, orderDirection: desc,`,
      "vaultKey account shares",
    );
    const res = await fetch(
      `${s.indexerUrl}/api/export/shareBalances.csv?shares_gt=0&orderBy=shares&orderDirection=desc`,
    );
    const [header, ...rows] = parseCsv(await res.text());
    const at = (name: string) => header!.findIndex((h) => h.startsWith(`${name}`));
    expect(
      rows.map((r) => ({ vaultKey: r[at("vaultKey")], account: r[at("account")], shares: r[at("shares")] })),
    ).toEqual(nodes);
  });

  it("bad input is a 400 in the API's error shape, naming the parameter", async () => {
    for (const [query, argument] of [
      ["where=%7Bnope", "where"],
      ["user=0x12", "user"],
      ["colour=red", "colour"],
      ["orderBy=colour", "orderBy"],
    ]) {
      const res = await fetch(`${s.indexerUrl}/api/export/psmSwaps.csv?${query}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { details: { argument } } });
    }
  });
});
