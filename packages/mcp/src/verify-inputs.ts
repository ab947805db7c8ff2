/**
 * What kusd-mcp adds to the API's verify_statement and verify_report where it runs them: the
 * inputs `l1Rpc` and `l1BlockHash` (trust only Ethereum), passed to kusd-verify as `--l1-rpc` and
 * `--l1-block-hash`; the result's `status` (verified, pending or not verified: kusd-verify's exit
 * 0, 3 or 1) and `ethereum` (the Base block proven from the output roots Base posts on Ethereum,
 * pending, or why not, as `kusd-verify --json` prints it). The zod schemas here are the single
 * source of what the tools' listing adds to the API's JSON schemas.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Address, Hex } from "viem";
import { z } from "zod";
import { type FigureRow, runVerify } from "../../verify/src/node.js";

/** The tools kusd-mcp runs on the agent's machine, and so gives the Ethereum inputs. */
export const L1_TOOLS = ["verify_statement", "verify_report"] as const;

export const L1InputSchema = z.strictObject({
  l1Rpc: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "trust only Ethereum (needs rpc; kusd-verify's --l1-rpc, which implies --proofs): an Ethereum RPC of your choice. The Base block's hash is proven from the output roots Base posts on Ethereum (the dispute games covering it, their status and the AnchorStateRegistry's judgement, proven against the Ethereum header), then every read is executed over state proven against that hash. A block newer than every posted root is pending: status 'pending', and `ethereum` says when the root that covers it is due",
    ),
  l1BlockHash: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "0x and 64 hex digits")
    .optional()
    .describe(
      "with l1Rpc: the Ethereum block hash you trust (from your own consensus client); the proofs are fetched below it from l1Rpc (default: l1Rpc's latest block)",
    ),
});

const GameSummarySchema = z.looseObject({
  address: z.string(),
  index: z.number().int().describe("its place in the DisputeGameFactory's list"),
  range: z
    .looseObject({ from: z.number().int(), to: z.number().int() })
    .describe("the Base blocks its roots cover: after `from`, up to `to`"),
  standing: z.enum(["final", "resolved", "in-progress", "invalid"]),
  detail: z.string(),
  finalAt: z.number().int().optional().describe("when it becomes final (unix seconds), for a game not final yet"),
});

export const EthereumSchema = z
  .looseObject({
    status: z
      .enum(["proven", "pending", "failed"])
      .describe(
        "proven: the block's hash rests on a root posted on Ethereum; pending: the block is newer than every posted root; failed: why not",
      ),
    detail: z.string().describe("in words: the game rested on and its state (and when it becomes final), or why not"),
    l1: z
      .looseObject({ number: z.number().int(), hash: z.string(), timestamp: z.number().int() })
      .describe("the Ethereum block everything rests on"),
    blockHash: z.string().nullable().describe("with proven: the Base block's hash, as the posted root gives it"),
    game: GameSummarySchema.extend({
      rootIndex: z.number().int(),
      rootBlock: z.number().int(),
      root: z.string(),
    })
      .nullable()
      .describe("the game rested on, and which of its roots"),
    games: z.array(GameSummarySchema).describe("every other game that covers the block, with why it was not rested on"),
    headersWalked: z.number().int().describe("Base headers walked from the root's block back to the block"),
    next: z
      .looseObject({ block: z.number().int(), baseTimeAbout: z.number().int().nullable() })
      .optional()
      .describe("with pending: the Base block of the next root that would cover the block, and about when it exists"),
    l1ProofCalls: z.number().int().describe("eth_getProof calls made to l1Rpc"),
  })
  .describe("with l1Rpc: the Base block proven from Ethereum, pending, or why not (kusd-verify --l1-rpc --json's)");

export type Ethereum = z.infer<typeof EthereumSchema>;

export const VerdictStatusSchema = z
  .enum(["verified", "pending", "not verified"])
  .describe(
    "verified; pending: every check passed but the block is newer than every root posted on Ethereum (l1Rpc; ask again after the time `ethereum` names; kusd-verify's exit 3); not verified",
  );

export type VerdictStatus = z.infer<typeof VerdictStatusSchema>;

/** The verdict's last line: VERIFIED, PENDING or NOT VERIFIED. */
export function statusWord(status: VerdictStatus): string {
  return status === "verified" ? "VERIFIED" : status === "pending" ? "PENDING" : "NOT VERIFIED";
}

const jsonProperties = (schema: z.ZodObject, io: "input" | "output") =>
  (z.toJSONSchema(schema, { io, target: "draft-7" }) as { properties: Record<string, object> }).properties;

/**
 * The tool as kusd-mcp lists it: the API's own input schema with l1Rpc and l1BlockHash beside its
 * properties, and its output schema with status and ethereum (an MCP client checks what a tool
 * answers against the schema listed).
 */
export function withL1(tool: Tool): Tool {
  if (!(L1_TOOLS as readonly string[]).includes(tool.name)) return tool;
  const added = z.strictObject({ status: VerdictStatusSchema, ethereum: EthereumSchema.optional() });
  return {
    ...tool,
    inputSchema: {
      ...tool.inputSchema,
      properties: { ...tool.inputSchema.properties, ...jsonProperties(L1InputSchema, "input") },
    },
    ...(tool.outputSchema && {
      outputSchema: {
        ...tool.outputSchema,
        properties: { ...tool.outputSchema.properties, ...jsonProperties(added, "output") },
        required: [...(tool.outputSchema.required ?? []), "status"],
      },
    }),
  };
}

/** The Ethereum RPC and the Ethereum block hash the agent trusts (null: the RPC's latest block). */
export type L1Source = { rpc: string; blockHash: Hex | null };

export type SplitArgs =
  | { ok: true; upstream: Record<string, unknown>; l1: L1Source | null }
  | { ok: false; error: string };

/**
 * The arguments apart: what the API's schema checks (everything but l1Rpc and l1BlockHash), and
 * the Ethereum inputs, checked here.
 */
export function splitL1(args: Record<string, unknown>): SplitArgs {
  const { l1Rpc, l1BlockHash, ...upstream } = args;
  const parsed = L1InputSchema.safeParse({ l1Rpc, l1BlockHash });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: `${String(issue.path[0])}: ${issue.message}` };
  }
  const { l1Rpc: rpc, l1BlockHash: hash } = parsed.data;
  if (hash !== undefined && rpc === undefined)
    return { ok: false, error: "l1BlockHash needs l1Rpc: the Ethereum RPC the proofs below it come from" };
  if (rpc !== undefined && typeof upstream.rpc !== "string")
    return { ok: false, error: "l1Rpc needs rpc: the Base RPC whose headers and state are proven from Ethereum" };
  return {
    ok: true,
    upstream,
    l1: rpc === undefined ? null : { rpc, blockHash: (hash?.toLowerCase() as Hex | undefined) ?? null },
  };
}

/** The reader's sources as kusd-verify's options: --rpc, --network, --venue, and --l1-rpc, --l1-block-hash. */
export function verifierArgs(
  networkFile: string | null,
  s: { rpc: string; venue: string | null; l1: L1Source | null },
): string[] {
  return [
    "--rpc",
    s.rpc,
    ...(networkFile === null ? [] : ["--network", networkFile]),
    ...(s.venue === null ? [] : ["--venue", s.venue]),
    ...(s.l1 === null ? [] : ["--l1-rpc", s.l1.rpc]),
    ...(s.l1?.blockHash ? ["--l1-block-hash", s.l1.blockHash] : []),
  ];
}

type Check = { name: string; ok: boolean; detail?: string };

/** What `kusd-verify --json` prints (the fields read here). */
export type VerifierJson = {
  verified: boolean;
  report?: string;
  checks: Check[];
  recovered: Address | null;
  signedAt: number | null;
  rederivation?: { block: { number: number; hash: string } | null };
  figures?: FigureRow[];
  ethereum?: Ethereum;
};

export type VerifierOutcome =
  | { judged: true; status: VerdictStatus; json: VerifierJson }
  | { judged: false; error: string };

/**
 * kusd-verify run here with `argv` and `--json` (runVerify, its command line in-process), the
 * documents it names served from `documents` (the artifact, a report, a binding as read here):
 * exit 0 verified, 3 pending, 1 not verified, 2 nothing judged (a source that does not answer, a
 * usage error), with why.
 */
export async function runVerifier(
  argv: string[],
  documents: Readonly<Record<string, string>>,
  run: typeof runVerify = runVerify,
): Promise<VerifierOutcome> {
  const { exitCode, output } = await run([...argv, "--json"], {
    readFile: async (path) => {
      const text = documents[path];
      if (text === undefined) throw new Error(`no document ${path} here`);
      return text;
    },
  });
  const json = JSON.parse(output) as VerifierJson & { error?: { message: string } };
  if (exitCode === 2) return { judged: false, error: json.error?.message ?? output.trim() };
  const status = exitCode === 0 ? "verified" : exitCode === 3 ? "pending" : "not verified";
  return { judged: true, status, json };
}
