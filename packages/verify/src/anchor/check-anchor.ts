/**
 * A statement's anchor checked on the reader's own RPC: the EAS attestation its `anchor` names
 * (or, when it says pending, one found in EAS's Attested logs by an authorised key), read with
 * getAttestation, judged by packages/core/src/attestation/anchor.ts: by an authorised key, committing to this
 * statement's hash and signed time, made within the window after it was signed (later:
 * back-dated), and the only statement that key anchored for that hour (another: rewritten).
 * Not anchored once the window has passed: unanchored.
 */

import {
  ANCHOR_SCHEMA_UID,
  type AnchorCheck,
  anchorChecks,
  decodeAnchorData,
  EAS_ADDRESS,
  type EasAttestation,
  easAbi,
  reportHour,
} from "@kusd/core";
import { type Address, createPublicClient, type Hex, http, type PublicClient, type Transport } from "viem";

export type AnchorOptions = {
  rpc: string | Transport;
  /** The keys allowed to sign (and so to anchor) a statement of this signed time. */
  authorised: readonly Address[];
  windowSeconds: number;
  /** eth_getLogs' largest range (blocks). */
  logRange?: bigint;
  now?: number;
};

type Found = { uid: Hex; attestationHash: Hex; signedAt: bigint; time: bigint; blockNumber: bigint };

/** Base makes a block every 2 s: an hour either side of the statement's block is where its hour's anchors are. */
const HOUR_OF_BLOCKS = 1_800n;

async function anchorsBy(
  client: PublicClient,
  attesters: readonly Address[],
  from: bigint,
  to: bigint,
  range: bigint,
): Promise<Found[]> {
  const found: Found[] = [];
  for (let start = from; start <= to; start += range) {
    const end = start + range - 1n < to ? start + range - 1n : to;
    const logs = await client.getContractEvents({
      address: EAS_ADDRESS,
      abi: easAbi,
      eventName: "Attested",
      args: { attester: [...attesters], schemaUID: ANCHOR_SCHEMA_UID },
      fromBlock: start,
      toBlock: end,
    });
    for (const log of logs) {
      const a = await client.readContract({
        address: EAS_ADDRESS,
        abi: easAbi,
        functionName: "getAttestation",
        args: [log.args.uid!],
      });
      const data = decodeAnchorData(a.data);
      if (data)
        found.push({
          uid: a.uid,
          attestationHash: data.attestationHash,
          signedAt: data.signedAt,
          time: a.time,
          blockNumber: log.blockNumber,
        });
    }
  }
  return found;
}

export async function checkAnchor(artifact: unknown, o: AnchorOptions): Promise<AnchorCheck[]> {
  const a = artifact as {
    attestation_hash?: string;
    signed_payload_canonical?: string;
    anchor?: { status?: string; uid?: Hex };
  };
  const payload = JSON.parse(a.signed_payload_canonical ?? "null") as {
    timestamp?: number;
    report_block?: number;
  } | null;
  const hash = a.attestation_hash?.toLowerCase() as Hex | undefined;
  if (!hash || typeof payload?.timestamp !== "number" || typeof payload.report_block !== "number")
    return [{ name: "anchored", ok: false, detail: "not a signed statement: nothing to look up" }];
  const signedAt = payload.timestamp;
  const client = createPublicClient({
    transport: typeof o.rpc === "string" ? http(o.rpc, { retryCount: 1 }) : o.rpc,
  }) as PublicClient;
  const range = o.logRange ?? 2_000n;
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const from = BigInt(payload.report_block) > HOUR_OF_BLOCKS ? BigInt(payload.report_block) - HOUR_OF_BLOCKS : 0n;
  const near = await anchorsBy(client, o.authorised, from, head, range);
  // Its own anchor: the one the statement names, else one whose recipient is made of its hash.
  const mine = a.anchor?.uid ?? near.find((x) => x.attestationHash.toLowerCase() === hash)?.uid ?? null;
  const now = o.now ?? Math.floor(Date.now() / 1000);
  if (!mine) {
    const waited = now - signedAt;
    return [
      waited > o.windowSeconds
        ? {
            name: "anchored",
            ok: false,
            detail: `not anchored ${waited} s after it was signed (window ${o.windowSeconds} s): unanchored`,
          }
        : {
            name: "anchored",
            ok: true,
            detail: `pending: signed ${waited} s ago, within the ${o.windowSeconds} s window`,
          },
    ];
  }
  const attestation = (await client.readContract({
    address: EAS_ADDRESS,
    abi: easAbi,
    functionName: "getAttestation",
    args: [mine],
  })) as EasAttestation;
  const hour = reportHour(signedAt);
  return anchorChecks({
    attestationHash: hash,
    signedAt,
    attestation,
    authorised: o.authorised,
    windowSeconds: o.windowSeconds,
    sameHour: near
      .filter((x) => x.uid !== mine && reportHour(Number(x.signedAt)) === hour)
      .map((x) => ({ uid: x.uid, attestationHash: x.attestationHash, time: x.time })),
  });
}
