/** A statement's `anchor` as published beside its signed bytes (packages/core/src/attestation/anchor.ts). */
import { ANCHOR_SCHEMA_UID, type AnchorView, EAS_ADDRESS } from "@kusd/core";
import type { StoredAnchor } from "../store/operator-store.js";

export function anchorView(a: StoredAnchor | null, chainId: number): AnchorView {
  if (a?.status !== "landed" || !a.uid || !a.txHash || a.blockNumber === null || a.blockTime === null)
    return { status: "pending" };
  return {
    status: "landed",
    uid: a.uid as `0x${string}`,
    txHash: a.txHash as `0x${string}`,
    blockNumber: Number(a.blockNumber),
    blockTime: a.blockTime,
    schemaUid: ANCHOR_SCHEMA_UID,
    eas: EAS_ADDRESS,
    chainId,
  };
}
