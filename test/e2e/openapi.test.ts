/**
 * The free API's contract, against the running stack: /api/openapi.json is a valid OpenAPI 3.1
 * document generated from the routes themselves, every documented path answers, and every
 * answer matches its published schema (the test stack checks each response against its route's
 * schema and answers 500 on a breach, so a 200 here is a passed check).
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { stack } from "../helpers/stack.js";

type Doc = {
  openapi: string;
  paths: Record<
    string,
    Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>
  >;
};

const s = stack();
const END = s.deployment.chains.base.historyEndBlock;
const get = async (path: string) => fetch(`${s.indexerUrl}${path}`);

describe("the free API's OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document with the error shape and a response schema per route", async () => {
    const r = await get("/api/openapi.json");
    expect(r.status).toBe(200);
    const doc = (await r.json()) as Doc;
    expect(doc.openapi).toBe("3.1.0");
    await SwaggerParser.validate(structuredClone(doc) as never);
    for (const [path, ops] of Object.entries(doc.paths)) {
      // The exports answer CSV or NDJSON (a string schema), llms.txt Markdown; every other route JSON.
      const type = path.endsWith(".csv")
        ? "text/csv"
        : path.endsWith(".ndjson")
          ? "application/x-ndjson"
          : path.endsWith(".txt")
            ? "text/markdown"
            : "application/json";
      for (const [method, op] of Object.entries(ops)) {
        expect(op.responses["200"], `${method} ${path}`).toMatchObject({
          content: { [type]: { schema: expect.any(Object) } },
        });
      }
    }
  });

  it("documents every free report, and no paid, GraphQL or Ponder route", async () => {
    const doc = (await (await get("/api/openapi.json")).json()) as Doc;
    const paths = Object.keys(doc.paths);
    for (const p of [
      "/api/por",
      "/api/stats",
      "/api/apy",
      "/api/por/signed",
      "/api/por/signed/history",
      "/api/por/redemption-plan",
      "/api/por/accounts",
      "/api/por/accounts/violations",
      "/api/euler",
      "/api/hedge-ledger",
      "/api/honesty-index",
      "/api/events/redemptions",
      "/api/events/minter-role-changes",
      "/api/events/backing-ratio",
      "/api/history",
    ]) {
      expect(paths, p).toContain(p);
    }
    // Outside /api/ only the documents for agents (discovery/routes.ts).
    expect(paths.filter((p) => !p.startsWith("/api/")).sort()).toEqual(["/.well-known/x402", "/llms.txt"]);
  });

  it("every documented GET answers 200 with a body that matches its schema (pinned to the scripted history where a block is taken)", async () => {
    const doc = (await (await get("/api/openapi.json")).json()) as Doc;
    const failed: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      const op = ops.get;
      if (!op || path.includes("{")) continue;
      const params = new Set((op.parameters ?? []).map((p) => p.name));
      const query = new URLSearchParams();
      if (params.has("block")) query.set("block", String(END));
      if (params.has("amount")) query.set("amount", "1000");
      if (params.has("below")) query.set("below", "1.1");
      const url = `${path}${query.size ? `?${query}` : ""}`;
      const res = await get(url);
      if (res.status !== 200) failed.push(`${url}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    }
    expect(failed).toEqual([]);
  });
});
