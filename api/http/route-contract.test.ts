/**
 * A route's contract at the edge, in process: a refused query parameter is a 400 with the
 * route's code before the handler runs, and an answer that breaks its schema is caught when
 * the app checks responses.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { onApiError } from "./errors.js";
import { limitParam } from "./query-params.js";
import { contract } from "./route-contract.js";

const Answer = z.strictObject({ limit: z.number().int(), note: z.string() });
const listContract = {
  summary: "a list",
  description: "a page of a list",
  tags: ["Test"],
  query: z.object({
    limit: limitParam(50, 10),
    after: z
      .string()
      .regex(/^\d+:\d+$/, "after is <block>:<logIndex>")
      .optional(),
  }),
  queryErrorCodes: { after: "invalid_cursor" as const },
  response: Answer,
};

function app(checkResponses: boolean, answer: (limit: number) => unknown) {
  const a = new Hono();
  a.onError(onApiError);
  a.use("*", async (c, next) => {
    c.set("checkResponses", checkResponses);
    await next();
  });
  let ran = 0;
  a.get("/list", ...contract(listContract), (c) => {
    ran++;
    return c.json(answer(c.req.valid("query").limit) as never);
  });
  return { a, ran: () => ran };
}

describe("route contract", () => {
  it("parses the query into what the handler uses, with the default when absent", async () => {
    const { a } = app(true, (limit) => ({ limit, note: "ok" }));
    expect(await (await a.request("/list?limit=7")).json()).toEqual({ limit: 7, note: "ok" });
    expect(await (await a.request("/list")).json()).toEqual({ limit: 10, note: "ok" });
  });

  it("refuses a bad parameter with its stable code and the raw value, before the handler runs", async () => {
    const { a, ran } = app(true, () => ({}));
    for (const [query, code, details] of [
      ["limit=0", "invalid_limit", { limit: "0" }],
      ["limit=51", "invalid_limit", { limit: "51" }],
      ["limit=abc", "invalid_limit", { limit: "abc" }],
      ["after=12", "invalid_cursor", { after: "12" }],
    ] as const) {
      const r = await a.request(`/list?${query}`);
      expect(r.status, query).toBe(400);
      expect(await r.json(), query).toMatchObject({ error: { code, details } });
    }
    expect(ran()).toBe(0);
  });

  it("answers 500 response_contract_violated when a checked answer gains or loses a field", async () => {
    for (const body of [{ limit: 1 }, { limit: 1, note: "x", extra: true }, { limit: "1", note: "x" }]) {
      const r = await app(true, () => body).a.request("/list");
      expect(r.status).toBe(500);
      expect(await r.json()).toMatchObject({ error: { code: "response_contract_violated" } });
    }
  });

  it("passes answers through unchecked when checking is off (production)", async () => {
    const r = await app(false, () => ({ limit: "not a number" })).a.request("/list");
    expect(r.status).toBe(200);
  });
});
