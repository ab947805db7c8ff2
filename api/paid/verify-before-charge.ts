/**
 * What we sell must verify: every paid answer goes through the verifier the buyers run
 * (packages/core/src/attestation's `verifyTrusted`, trusting the operator-signed binding as `kusd-buy --binding
 * --operator` does) inside the request, after the handler and before x402 settles. An answer that
 * fails becomes `503 artifact_unverifiable` naming the failed checks, and x402 settles nothing for
 * a status of 400 or more, so the payer keeps their money.
 */

import { pinnedTrust, type SignerBinding, type Trust, trustFromBinding, verifyTrusted } from "@kusd/core";
import type { MiddlewareHandler } from "hono";
import type { Address, Hex } from "viem";
import { errorBody } from "../http/errors.js";

/**
 * The trust a buyer derives: the published binding verified against the operator account, or,
 * with no binding (no attestation key configured), the operator account alone.
 */
export function bindingTrust(binding: () => Promise<SignerBinding | null>, operator: Address): () => Promise<Trust> {
  let kept: { hash: Hex; trust: Trust } | null = null;
  return async () => {
    const published = await binding();
    if (!published) return pinnedTrust([operator]);
    if (kept?.hash !== published.attestation_hash)
      kept = { hash: published.attestation_hash, trust: await trustFromBinding(published, operator) };
    return kept.trust;
  };
}

export function verifyBeforeCharge(
  trust: () => Promise<Trust>,
  o: { maxAgeSeconds: number; now?: () => number },
): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.status !== 200) return;
    const artifact = await c.res
      .clone()
      .json()
      .catch(() => null);
    const result = await verifyTrusted(artifact, await trust(), {
      maxAgeSeconds: o.maxAgeSeconds,
      ...(o.now && { now: o.now() }),
    });
    if (result.verified) return;
    const failed = result.checks.filter((check) => !check.ok);
    // An operator-side incident (a stored artifact altered, a key or binding out of step): logged.
    console.error(
      `[paid] ${c.req.method} ${c.req.path}: refused an artifact that fails verification: ${failed.map((f) => `${f.name} (${f.detail ?? ""})`).join("; ")}`,
    );
    c.res = c.json(
      errorBody(
        "artifact_unverifiable",
        `the artifact fails verification (${failed.map((f) => f.name).join(", ")}); nothing was charged`,
        { failedChecks: failed, checks: result.checks },
      ),
      503,
      { "Retry-After": "60" },
    );
  };
}
