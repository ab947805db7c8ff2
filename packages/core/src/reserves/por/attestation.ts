/**
 * attestation: what this unsigned report is checked against (the chain's length when it was
 * built, the indexed head) and where its signed equivalent is published.
 */
import { z } from "zod";
import { type NotDeployedRead, notDeployedSchema, verifyViaSchema } from "../../schema-primitives.js";

export const AttestationSchema = z.strictObject({
  kind: z.literal("unsigned-report"),
  rpcChainLength: z.int().nullable().describe("the RPC's block number at report time; null when it could not be read"),
  indexedHeadBlock: z.int(),
  canonicalEndpoint: z.string(),
  signedEquivalent: z.string(),
  failedReads: z
    .array(z.string())
    .describe("every chain read that failed this request; each failed figure is null, never guessed"),
  notDeployed: notDeployedSchema,
  verifyVia: verifyViaSchema,
});
export type Attestation = z.infer<typeof AttestationSchema>;

export type AttestationInputs = {
  block: number;
  failedReads: string[];
  notDeployed: NotDeployedRead[];
  rpcChainLength: number | null;
  indexedHead: { blockNumber: bigint };
  canonicalEndpoint: string;
  commandRpcUrl: string;
};

export function buildAttestation(a: AttestationInputs): Attestation {
  return {
    kind: "unsigned-report",
    rpcChainLength: a.rpcChainLength,
    indexedHeadBlock: Number(a.indexedHead.blockNumber),
    canonicalEndpoint: a.canonicalEndpoint,
    signedEquivalent: "/api/por/signed",
    failedReads: a.failedReads,
    notDeployed: a.notDeployed,
    verifyVia: [
      `cast block-number --rpc-url ${a.commandRpcUrl}  # attestation.rpcChainLength (at report time)`,
      `cast block ${a.block} --rpc-url ${a.commandRpcUrl}  # blockNumber and timestamp`,
    ],
  };
}
