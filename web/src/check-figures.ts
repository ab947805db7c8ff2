/**
 * "Check every figure against your own RPC": the statement's figures re-derived in this page from
 * the reader's RPC, with the verifier package's own code (kusd-verify --rpc, --proofs). Nothing is
 * read from this site but the statement and the network document; the RPC is reached only because
 * the page was opened with it (`?rpc=`), which is when its content security policy allows it.
 */

import type { NetworkDocument } from "@kusd/config";
import { ANCHOR_WINDOW_SECONDS } from "@kusd/core";
import {
  checkAnchor,
  type FigureRow,
  networkOf,
  rederivationChecks,
  rederiveStatement,
  trustFromBinding,
} from "../../packages/verify/src/index.js";

export type FigureCheck = {
  rows: FigureRow[];
  checks: { name: string; ok: boolean; detail?: string }[];
  block: number;
  /** From the click (the page load) to the full table, in ms. */
  ms: number;
};

export async function checkFigures(
  statementText: string,
  networkText: string,
  trust: { bindingText: string | null; operator: string },
  rpc: string,
  proofs: boolean,
  startedAt: number,
): Promise<FigureCheck> {
  const artifact = JSON.parse(statementText) as { signed_payload_canonical: string };
  const payload = JSON.parse(artifact.signed_payload_canonical);
  const network = networkOf(JSON.parse(networkText) as NetworkDocument, rpc);
  const d = await rederiveStatement(payload, {
    rpc,
    network,
    proofs: proofs
      ? { blockHash: payload.report_block_hash, source: "the statement's report_block_hash, as your RPC confirms it" }
      : null,
  });
  // Its anchor on Base, read from the same RPC, against the keys the operator's binding authorises.
  const binding = await trustFromBinding(
    trust.bindingText === null ? null : JSON.parse(trust.bindingText),
    trust.operator as `0x${string}`,
  );
  const anchor = await checkAnchor(artifact, {
    rpc,
    authorised: binding.trustedSigner(payload.timestamp),
    windowSeconds: ANCHOR_WINDOW_SECONDS,
  });
  return {
    rows: d.rows,
    checks: [...rederivationChecks(d, rpc), ...anchor],
    block: Number(d.block.number),
    ms: Math.round(performance.now() - startedAt),
  };
}
