/**
 * `verify_statement`: the verification every client runs (packages/core/src/attestation's verifyTrusted) over a
 * signed artifact the agent passes, or over the latest signed statement. Trust is what a buyer
 * derives: the published signer binding, checked against the operator account (or, with no
 * binding, that account alone), as the gateway does before it charges.
 */

import type { NetworkConfig } from "@kusd/core";
import {
  ANCHOR_WINDOW_SECONDS,
  addressSchema,
  STATEMENT_MAX_AGE_SECONDS,
  signedArtifactShape,
  type Trust,
  verifyTrusted,
} from "@kusd/core";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import {
  checkAnchor,
  DEFAULT_BRACKET_TOLERANCE,
  FigureRowSchema,
  RederivationError,
  rederivationChecks,
  rederiveStatement,
} from "../../packages/verify/src/index.js";
import { checkedByTheRoute, describeError, type RouteCall, resultOf, toolError } from "./tool-results.js";

export const VerifyInputSchema = z.strictObject({
  artifact: z
    .looseObject(signedArtifactShape)
    .optional()
    .describe(
      "a signed artifact as published (a statement, a paid answer, the signer binding); default: the latest signed statement",
    ),
  maxAgeSeconds: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .optional()
    .describe(`oldest signed time accepted, in seconds (default ${STATEMENT_MAX_AGE_SECONDS}); null: not checked`),
  rpc: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "a Base RPC of your choice: every figure the statement signs is re-derived from it at report_block (pinned by report_block_hash) and compared, one row a figure in `figures`; verified then also needs no figure to differ",
    ),
  venue: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "with rpc: a venue POST /info endpoint of your choice (default: the network's): the venue equity recorded at signing is bracketed in its account value history",
    ),
});

export const VerifyOutputSchema = z.strictObject({
  verified: z.boolean().describe("true only when every check passed"),
  trust: z.string().describe("where the accepted signers come from"),
  attestation_hash: z.string().nullable(),
  recovered: addressSchema.nullable().describe("the EIP-191 signer recovered from the signature"),
  signedAt: z.number().int().nullable().describe("the signed unix timestamp"),
  checks: z.array(z.strictObject({ name: z.string(), ok: z.boolean(), detail: z.string().optional() })),
  figures: z.array(FigureRowSchema).optional().describe("with `rpc`: each signed figure, published and re-derived"),
});

export type VerifyToolDeps = {
  call: RouteCall;
  trust: () => Promise<Trust>;
  /** The trust in words (the operator it is anchored to). */
  trustDescription: string;
  /** The network whose contracts the figures read (re-derivation with `rpc`). */
  network: NetworkConfig;
  /** Why this server will not read from `rpc` (null: it will). */
  refuseRpc: (rpc: string) => string | null;
};

/** The verdict on an artifact, or the latest statement's. */
export async function verifyStatement(
  input: z.infer<typeof VerifyInputSchema>,
  deps: VerifyToolDeps,
): Promise<CallToolResult> {
  let artifact: unknown = input.artifact;
  if (artifact === undefined) {
    const latest = await resultOf(await deps.call("/api/por/signed"));
    if (latest.isError) return latest;
    artifact = latest.structuredContent;
  }
  const trust = await deps.trust();
  const result = await verifyTrusted(artifact, trust, {
    maxAgeSeconds: input.maxAgeSeconds === undefined ? STATEMENT_MAX_AGE_SECONDS : input.maxAgeSeconds,
  });
  const rederived = input.rpc ? await rederive(artifact, input.rpc, input.venue, deps, trust) : null;
  const verdict: z.infer<typeof VerifyOutputSchema> = {
    verified: result.verified && (rederived?.checks.every((c) => c.ok) ?? true),
    trust: deps.trustDescription,
    attestation_hash: (artifact as { attestation_hash?: string }).attestation_hash ?? null,
    recovered: result.recovered,
    signedAt: result.signedAt,
    checks: [...result.checks, ...(rederived?.checks ?? [])],
    ...(rederived && { figures: rederived.figures }),
  };
  const lines = result.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? `: ${c.detail}` : ""}`);
  return {
    content: [{ type: "text", text: `${lines.join("\n")}\n${result.verified ? "VERIFIED" : "NOT VERIFIED"}` }],
    structuredContent: verdict,
  };
}

/** The artifact's signed figures re-derived from `rpc`: the checks and the rows, or a failed check saying why not. */
async function rederive(
  artifact: unknown,
  rpc: string,
  venueArg: string | undefined,
  deps: VerifyToolDeps,
  trust: Trust,
) {
  const venue = venueArg ?? deps.network.reporting.venue.url;
  const refused = deps.refuseRpc(rpc) ?? (venue ? deps.refuseRpc(venue) : null);
  if (refused) return { checks: [{ name: "figures", ok: false, detail: refused }], figures: [] };
  let payload: unknown;
  try {
    payload = JSON.parse((artifact as { signed_payload_canonical: string }).signed_payload_canonical);
  } catch {
    return { checks: [{ name: "figures", ok: false, detail: "no signed payload to re-derive" }], figures: [] };
  }
  try {
    const d = await rederiveStatement(payload, {
      rpc,
      network: deps.network,
      networkName: "this service's network document (GET /api/network)",
      venue: venue ? { url: venue, bracketTolerance: DEFAULT_BRACKET_TOLERANCE } : null,
    });
    const signedAt = (payload as { timestamp: number }).timestamp;
    const anchored = await checkAnchor(artifact, {
      rpc,
      authorised: trust.trustedSigner(signedAt),
      windowSeconds: ANCHOR_WINDOW_SECONDS,
    });
    return { checks: [...rederivationChecks(d, rpc), ...anchored], figures: d.rows };
  } catch (e) {
    const detail =
      e instanceof RederivationError ? e.message : `re-derivation failed: ${(e as Error).message.split("\n")[0]}`;
    return {
      checks: [
        {
          name: e instanceof RederivationError && e.code === "block_not_on_chain" ? "block" : "figures",
          ok: false,
          detail,
        },
      ],
      figures: [],
    };
  }
}

export function registerVerifyTool(server: McpServer, deps: VerifyToolDeps) {
  server.registerTool(
    "verify_statement",
    {
      title: "Verify a signed statement",
      description:
        "Verifies a signed artifact (default: the latest signed statement): SHA-256 of signed_payload_canonical equals attestation_hash, the EIP-191 signer recovered from signature is the one the signer binding names for the signed time, the binding is signed by the operator account, unsigned copies equal the signed values, and the statement is fresh. Run `npx kusd-verify` (or kusd-mcp over stdio) to verify on your own machine instead of trusting this server.",
      inputSchema: checkedByTheRoute(VerifyInputSchema),
      outputSchema: VerifyOutputSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args: Record<string, unknown>) => {
      // Refused as a route refuses a parameter: `invalid_<argument>: message`, with what was sent.
      const input = VerifyInputSchema.safeParse(args);
      if (input.success) return verifyStatement(input.data, deps);
      const issue = input.error.issues[0]!;
      const name = String(issue.path[0] ?? "arguments");
      return toolError(
        describeError({ code: `invalid_${name}`, message: issue.message, details: { [name]: args[name] ?? null } }),
      );
    },
  );
}
