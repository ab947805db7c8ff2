/**
 * Balance reads against an indexer that has just backfilled (bench:index --reads): the GraphQL
 * questions a balance answers, each asked `n` times with different arguments so that no answer
 * comes from the response cache: the top skUSD holders now and at a past block, the registry
 * accounts' token balances now and at a past block, and one holder's balances through `account`.
 * Sequential, one client: the latency of the query itself. Median and p99 in ms.
 */

type ReadLatency = { name: string; p50: number; p99: number };

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

async function ask(url: string, query: string): Promise<Record<string, any>> {
  const res = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { data?: Record<string, any>; errors?: unknown };
  if (body.errors || !body.data) throw new Error(`balance read failed: ${JSON.stringify(body.errors)}`);
  return body.data;
}

async function timed(url: string, name: string, queries: string[]): Promise<ReadLatency> {
  const ms: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    await ask(url, q);
    ms.push(performance.now() - t0);
  }
  return { name, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
}

/** `n` distinct block numbers spread over [1, lastBlock]. */
const blocks = (n: number, lastBlock: number) =>
  Array.from({ length: n }, (_, i) => 1 + Math.floor(((i + 0.5) * (lastBlock - 1)) / n));

export async function timeBalanceReads(url: string, lastBlock: number, n = 40): Promise<ReadLatency[]> {
  const top = (first: number, at = "") =>
    `{ shareBalances(${at}where: { vaultKey: skUSD }, orderBy: shares, orderDirection: desc, first: ${first}) { nodes { account shares } } }`;
  const tokens = (first: number, at = "") =>
    `{ tokenBalances(${at}orderBy: balance, orderDirection: desc, first: ${first}) { nodes { account tokenSymbol balance } } }`;
  const holders = (await ask(url, top(n))).shareBalances.nodes.map((h: { account: string }) => h.account) as string[];
  const ks = Array.from({ length: n }, (_, i) => i + 1);
  return [
    await timed(
      url,
      "top skUSD holders, now",
      ks.map((k) => top(k)),
    ),
    await timed(
      url,
      "top skUSD holders at a past block",
      blocks(n, lastBlock).map((b) => top(10, `block: { number: "${b}" }, `)),
    ),
    await timed(
      url,
      "registry token balances, now",
      ks.map((k) => tokens(k)),
    ),
    await timed(
      url,
      "registry token balances at a past block",
      blocks(n, lastBlock).map((b) => tokens(10, `block: { number: "${b}" }, `)),
    ),
    await timed(
      url,
      "one holder's share and token balances",
      holders.map(
        (a) => `{ account(address: "${a}") { shareBalances { vaultKey shares } tokenBalances { balance } } }`,
      ),
    ),
  ];
}

export function formatReads(label: string, reads: ReadLatency[]): string {
  const width = Math.max(...reads.map((r) => r.name.length));
  return [
    `balance reads, ${label} (GraphQL, one client, each query distinct; ms p50 / p99):`,
    ...reads.map((r) => `  ${r.name.padEnd(width)}  ${r.p50.toFixed(1).padStart(7)} / ${r.p99.toFixed(1)}`),
  ].join("\n");
}
