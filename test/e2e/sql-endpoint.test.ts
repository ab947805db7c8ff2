/**
 * The public API runs no raw SQL (issue: Ponder 0.16's /sql could be made to run a refused
 * statement, and an unbounded query held the API): /sql answers the JSON 404 for any statement,
 * a write or a slow query included, and the indexed tables are untouched. The tests' own reads go
 * through a loopback-only port (KUSD_PRIVATE_SQL_PORT).
 */
import { networkInterfaces } from "node:os";
import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { stack } from "../helpers/stack.js";

const s = stack();

/** A request in @ponder/client's wire format (superjson of { sql, params }). */
const ponderSqlUrl = (base: string, sql: string) =>
  `${base}/sql/db?sql=${encodeURIComponent(JSON.stringify({ json: { sql, params: [], typings: [] } }))}`;

describe("raw SQL over HTTP", () => {
  it("is not served by the public API: a write and a slow cross join are a JSON 404, and nothing changed", async () => {
    const [{ n: before }] = (await s.db.select({ n: count() }).from(s.schema.psmSwap)) as [{ n: number }];
    expect(before).toBeGreaterThan(0);
    for (const statement of [
      "DELETE FROM psm_swap",
      "DROP TABLE psm_swap",
      "COMMENT ON TABLE psm_swap IS 'x'",
      "SELECT count(*) FROM psm_swap a, psm_swap b, psm_swap c, psm_swap d",
    ]) {
      for (const path of ["/sql/db", "/sql/live"]) {
        const res = await fetch(ponderSqlUrl(s.indexerUrl, statement).replace("/sql/db", path));
        expect(res.status, `${path} ${statement}`).toBe(404);
        expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
      }
    }
    const [{ n: after }] = (await s.db.select({ n: count() }).from(s.schema.psmSwap)) as [{ n: number }];
    expect(after).toBe(before);
    expect((await fetch(`${s.indexerUrl}/health`)).status).toBe(200);
  });

  it("the tests' private SQL port answers on loopback and refuses connections on the machine's other addresses", async () => {
    const url = new URL(s.privateSqlUrl);
    expect(url.hostname).toBe("127.0.0.1");
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === "IPv4" && !i.internal);
    if (!external) return; // a machine with loopback only has nothing else to try
    const outside = await fetch(`http://${external.address}:${url.port}/sql/db`).then(
      (r) => r.status,
      (e: Error) => e.cause ?? e,
    );
    expect(String((outside as { code?: string }).code ?? outside)).toMatch(/ECONNREFUSED/);
  });
});
