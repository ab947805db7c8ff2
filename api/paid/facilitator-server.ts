/**
 * The in-process facilitator served over x402's facilitator HTTP API (POST /verify, POST /settle,
 * GET /supported, as `HTTPFacilitatorClient` calls them), so any number of API processes settle
 * through one process that owns the gas key and its nonces (`npm run serve:facilitator`). Each API
 * process then names it in `KUSD_X402_FACILITATOR_URL`; two processes settling from one key each
 * with its own nonce counter would hand out the same nonce twice.
 *
 * It settles only payments to this deployment's recipient in its asset: a facilitator pays the gas
 * of every settlement it is asked for, so one that settled anything would be anyone's gas tap.
 */
import { parsePaymentPayload, parsePaymentRequirements } from "@x402/core/schemas";
import type { FacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { Hono } from "hono";
import { type Address, getAddress, isAddress } from "viem";

export type FacilitatorServerOptions = {
  facilitator: FacilitatorClient;
  /** The only payee and asset it settles for. */
  recipient: Address;
  asset: Address;
  network: string;
};

type Refusal = { status: 400 | 403; code: string; message: string };

export function facilitatorServer(o: FacilitatorServerOptions): Hono {
  const app = new Hono();
  const refuse = (r: Refusal) => ({ error: { code: r.code, message: r.message } });
  /** The request body as x402's schemas read it, or why not. */
  const read = async (body: unknown) => {
    const b = (body ?? {}) as { paymentPayload?: unknown; paymentRequirements?: unknown };
    const payload = parsePaymentPayload(b.paymentPayload);
    const requirements = parsePaymentRequirements(b.paymentRequirements);
    if (!payload.success || !requirements.success || payload.data.x402Version !== 2)
      return {
        refusal: {
          status: 400,
          code: "invalid_facilitator_request",
          message: `expected {x402Version: 2, paymentPayload, paymentRequirements}: ${(payload.error ?? requirements.error)?.issues[0]?.message ?? "x402 version 2 only"}`,
        } as Refusal,
      };
    const r = requirements.data as { payTo?: string; asset?: string; network?: string };
    const ours =
      typeof r.payTo === "string" &&
      isAddress(r.payTo) &&
      getAddress(r.payTo) === o.recipient &&
      typeof r.asset === "string" &&
      isAddress(r.asset) &&
      getAddress(r.asset) === o.asset &&
      r.network === o.network;
    if (!ours)
      return {
        refusal: {
          status: 403,
          code: "not_this_deployments_payment",
          message: `this facilitator settles only payments of ${o.asset} to ${o.recipient} on ${o.network}`,
        } as Refusal,
      };
    return { payload: payload.data as PaymentPayload, requirements: requirements.data as PaymentRequirements };
  };
  const json = async (req: Request): Promise<unknown> => req.json().catch(() => undefined);

  app.get("/supported", async (c) => c.json(await o.facilitator.getSupported()));
  app.post("/verify", async (c) => {
    const r = await read(await json(c.req.raw));
    if ("refusal" in r) return c.json(refuse(r.refusal!), r.refusal!.status);
    return c.json(await o.facilitator.verify(r.payload, r.requirements));
  });
  app.post("/settle", async (c) => {
    const r = await read(await json(c.req.raw));
    if ("refusal" in r) return c.json(refuse(r.refusal!), r.refusal!.status);
    try {
      return c.json(await o.facilitator.settle(r.payload, r.requirements));
    } catch (e) {
      // The shape HTTPFacilitatorClient turns into a SettleError: the gateway then charges nothing.
      return c.json(
        {
          success: false,
          errorReason: "unexpected_settle_error",
          errorMessage: (e as Error).message,
          transaction: "",
          network: o.network,
        },
        502,
      );
    }
  });
  app.notFound((c) =>
    c.json({ error: { code: "not_found", message: "POST /verify, POST /settle, GET /supported" } }, 404),
  );
  return app;
}
