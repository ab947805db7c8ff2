import type { FacilitatorClient } from "@x402/core/server";
import { describe, expect, it } from "vitest";
import { facilitatorServer } from "./facilitator-server.js";

const recipient = "0x1111111111111111111111111111111111111111" as const;
const asset = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" as const;
const network = "eip155:8453";
const requirements = {
  scheme: "exact",
  network,
  asset,
  amount: "250000",
  payTo: recipient,
  maxTimeoutSeconds: 60,
  extra: { name: "USD Coin", version: "2" },
};
const payload = { x402Version: 2, accepted: requirements, payload: { signature: "0x", authorization: {} } };

function server(
  settle: FacilitatorClient["settle"] = async () => ({ success: true, transaction: "0xabc", network }) as never,
) {
  const calls: string[] = [];
  const facilitator: FacilitatorClient = {
    verify: async () => {
      calls.push("verify");
      return { isValid: true, payer: recipient } as never;
    },
    settle: async (p, r) => {
      calls.push("settle");
      return settle(p, r);
    },
    getSupported: async () =>
      ({ kinds: [{ x402Version: 2, scheme: "exact", network }], extensions: [], signers: {} }) as never,
  };
  return { app: facilitatorServer({ facilitator, recipient, asset, network }), calls };
}

const post = (app: ReturnType<typeof server>["app"], path: string, body: unknown) =>
  app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("the facilitator over HTTP", () => {
  it("passes this deployment's payments to the facilitator, as x402's HTTP client sends them", async () => {
    const { app, calls } = server();
    const verified = await post(app, "/verify", {
      x402Version: 2,
      paymentPayload: payload,
      paymentRequirements: requirements,
    });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toMatchObject({ isValid: true });
    const settled = await post(app, "/settle", {
      x402Version: 2,
      paymentPayload: payload,
      paymentRequirements: requirements,
    });
    expect(await settled.json()).toMatchObject({ success: true, transaction: "0xabc" });
    expect((await app.request("/supported")).status).toBe(200);
    expect(calls).toEqual(["verify", "settle"]);
  });

  it("refuses anything else with a JSON 4xx and never calls the facilitator: bad JSON, x402 v1, another payee, asset or network", async () => {
    const { app, calls } = server();
    expect((await post(app, "/settle", "{not json")).status).toBe(400);
    const v1 = { ...payload, x402Version: 1, scheme: "exact", network: "base" };
    expect(
      (await post(app, "/settle", { x402Version: 1, paymentPayload: v1, paymentRequirements: requirements })).status,
    ).toBe(400);
    for (const other of [
      { payTo: "0x2222222222222222222222222222222222222222" },
      { asset: "0x3333333333333333333333333333333333333333" },
      { network: "eip155:1" },
    ]) {
      const r = { ...requirements, ...other };
      const res = await post(app, "/settle", {
        x402Version: 2,
        paymentPayload: { ...payload, accepted: r },
        paymentRequirements: r,
      });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_this_deployments_payment");
    }
    expect((await app.request("/nowhere")).status).toBe(404);
    expect(calls).toEqual([]);
  });

  it("a settlement that throws is a failed settlement the client reads as one (502, success false)", async () => {
    const { app } = server(async () => {
      throw new Error("nonce too low");
    });
    const res = await post(app, "/settle", {
      x402Version: 2,
      paymentPayload: payload,
      paymentRequirements: requirements,
    });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({
      success: false,
      errorReason: "unexpected_settle_error",
      errorMessage: "nonce too low",
    });
  });
});
