/**
 * The reports in GraphQL, each at a block where it has one: the reserves report (typed headline
 * figures plus the whole document as JSON, identical to GET /api/por), stats, signed statements
 * and the account registry. The same functions as the REST routes compute them.
 */

import type { RegistryDocument } from "@kusd/core";
import { registryVersionAt } from "@kusd/core";
import { GraphQLError } from "graphql";
import { type ReportContext, resolveReportBlock } from "../context.js";
import { asApiError } from "../http/errors.js";
import { loadPorReport } from "../reserves/por-service.js";
import { type loadStats, renderStats } from "../reserves/stats-service.js";
import type { StoredStatement } from "../store/operator-store.js";
import { BlockHeight } from "./block-height.js";
import { builder, type GraphQLContext } from "./builder.js";
import { badInput } from "./inputs.js";
import { type BlockHeight as BlockHeightValue, resolveBlock } from "./query/block.js";
import { QueryInputError } from "./query/query-error.js";
import { asUserErrors } from "./user-errors.js";

/** REST errors (a bad block, a block not indexed) become GraphQL errors with the same code. */
export async function asGraphQL<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    const known = asApiError(e);
    if (known)
      throw new GraphQLError(known.message, {
        extensions: {
          code: known.status < 500 ? "BAD_USER_INPUT" : "UNAVAILABLE",
          reason: known.code,
          ...known.details,
        },
      });
    throw e;
  }
}

const blockArg = (block: bigint | null | undefined) => (block == null ? undefined : block.toString());

type Por = Awaited<ReturnType<typeof loadPorReport>>;

const Solvency = builder.objectRef<Por["solvency"]>("Solvency").implement({
  fields: (t) => ({
    status: t.exposeString("status"),
    psmSolvent: t.exposeBoolean("psmSolvent", { nullable: true }),
    psmSolvencyRatio: t.exposeFloat("psmSolvencyRatio", { nullable: true }),
    aggregateCollateralRatio: t.exposeFloat("aggregateCollateralRatio", { nullable: true }),
    collateralUSD: t.exposeFloat("collateralUSD", { nullable: true }),
    liabilitiesUSD: t.exposeFloat("liabilitiesUSD", { nullable: true }),
  }),
});

type VenueReadDoc = Por["reserves"]["vault"]["composition"]["l1Assets"]["venueRead"];
const VenueRead = builder.objectRef<VenueReadDoc>("VenueRead").implement({
  description: "Where the venue equity that caps vault v1's mirror came from (l1Assets.venueRead)",
  fields: (t) => ({
    source: t.exposeString("source", {
      description:
        "live (read now, at the head), recorded (the reading a signed statement used at this block or nearest before it), or none",
    }),
    reason: t.exposeString("reason", { nullable: true, description: "why no venue equity counts (source none)" }),
    venueTime: t.exposeString("venueTime", { nullable: true, description: "the venue's own time of its answer" }),
    ageSeconds: t.exposeInt("ageSeconds", { nullable: true }),
    recordedAtBlock: t.exposeInt("recordedAtBlock", { nullable: true }),
    statement: t.exposeString("statement", {
      nullable: true,
      description: "attestation_hash of the statement that recorded it",
    }),
  }),
});

const PorRef = builder.objectRef<Por>("ReservesReport").implement({
  description: "GET /api/por at a block: headline figures typed, the whole report under `document`.",
  fields: (t) => ({
    blockNumber: t.exposeInt("blockNumber"),
    blockHash: t.exposeString("blockHash", { nullable: true }),
    timestamp: t.exposeString("timestamp"),
    solvency: t.field({ type: Solvency, resolve: (r) => r.solvency }),
    venueRead: t.field({ type: VenueRead, resolve: (r) => r.reserves.vault.composition.l1Assets.venueRead }),
    kusdTotalSupply: t.field({
      type: "BigInt",
      nullable: true,
      description: "18 decimals",
      resolve: (r) => r.liabilities.kUSD.totalSupplyWei,
    }),
    kusdOutstanding: t.field({
      type: "BigInt",
      nullable: true,
      description: "18 decimals",
      resolve: (r) => r.liabilities.kUSD.outstandingWei,
    }),
    psmUsdcHeld: t.float({
      nullable: true,
      description: "USDC across the three PSMs",
      resolve: (r) => r.reserves.psm.usdcHeld,
    }),
    minterRoleHeld: t.boolean({
      nullable: true,
      description: "kUSD MINTER_ROLE held by the live mint PSM (live read; null when it failed)",
      resolve: (r) => r.reserves.vaultV2.minterRole.holdsRole,
    }),
    document: t.field({ type: "JSON", resolve: (r) => r }),
  }),
});

builder.queryField("reserves", (t) =>
  t.field({
    type: PorRef,
    args: { block: t.arg({ type: "BigInt", description: "Default: the indexed head" }) },
    resolve: (_r, args, { reports }) =>
      asGraphQL(async () => loadPorReport(reports, await resolveReportBlock(reports, blockArg(args.block)))),
  }),
);

type Stats = Awaited<ReturnType<typeof loadStats>>;
const StatsRef = builder.objectRef<Stats>("Stats").implement({
  description: "GET /api/stats: PSM USDC per PSM and in total, kUSD supply and outstanding. No ratio.",
  fields: (t) => ({
    blockNumber: t.exposeInt("blockNumber"),
    timestamp: t.exposeString("timestamp"),
    psmUSDCLegacy: t.exposeFloat("psmUSDCLegacy"),
    psmUSDCMint: t.exposeFloat("psmUSDCMint"),
    psmUSDCPrevMint: t.exposeFloat("psmUSDCPrevMint"),
    psmUSDC: t.exposeFloat("psmUSDC"),
    psmReservesUSD: t.exposeFloat("psmReservesUSD"),
    kusdOutstanding: t.exposeFloat("kusdOutstanding"),
    kusdOutstandingWei: t.field({ type: "BigInt", resolve: (s) => s.kusdOutstandingWei }),
    kusdSupply: t.exposeFloat("kusdSupply"),
    kusdSupplyWei: t.field({ type: "BigInt", resolve: (s) => s.kusdSupplyWei }),
  }),
});

builder.queryField("stats", (t) =>
  t.field({
    type: StatsRef,
    args: { block: t.arg({ type: "BigInt" }) },
    resolve: (_r, args, { reports }) =>
      asGraphQL(
        async () => (await renderStats(reports, await resolveReportBlock(reports, blockArg(args.block)))).stats,
      ),
  }),
);

export const SignedStatementRef = builder.objectRef<StoredStatement>("SignedStatement").implement({
  description: "An hourly signed statement; `artifact` is the published JSON, byte for byte.",
  fields: (t) => ({
    attestationHash: t.exposeString("attestationHash"),
    signer: t.exposeString("signer"),
    status: t.exposeString("status"),
    timestamp: t.field({ type: "BigInt", description: "Signed unix time", resolve: (s) => s.timestamp }),
    blockNumber: t.field({ type: "BigInt", resolve: (s) => s.blockNumber }),
    artifact: t.exposeString("artifact"),
  }),
});

const services = (ctx: GraphQLContext) => {
  if (!ctx.services?.statements)
    throw new GraphQLError("signed statements are not served by this instance", {
      extensions: { code: "UNAVAILABLE" },
    });
  return ctx.services.statements;
};

builder.queryField("signedStatement", (t) =>
  t.field({
    type: SignedStatementRef,
    nullable: true,
    description: "By attestation_hash; without it, the latest.",
    args: { attestationHash: t.arg.string() },
    resolve: async (_r, args, ctx) => {
      const statements = services(ctx);
      if (!args.attestationHash) return statements.latest(); // issues the first one if none is stored yet
      const store = await statements.store;
      if (!/^0x[0-9a-fA-F]{64}$/.test(args.attestationHash))
        throw badInput("attestationHash is 0x and 64 hex characters");
      return store.statements.byHash(args.attestationHash);
    },
  }),
);

builder.queryField("signedStatements", (t) =>
  t.field({
    type: [SignedStatementRef],
    description: "Stored statements, newest first; `before` (unix seconds) pages back.",
    args: { first: t.arg.int({ defaultValue: 24 }), before: t.arg({ type: "BigInt" }) },
    resolve: async (_r, args, ctx) => {
      const first = args.first ?? 24;
      if (first < 1 || first > 500) throw badInput("first must be between 1 and 500");
      const store = await services(ctx).store;
      return store.statements.list({ limit: first, ...(args.before != null && { before: Number(args.before) }) });
    },
  }),
);

type RegistryEntryView = {
  address: string;
  kind: string;
  role: string;
  label: string;
  statementDigest: string;
  membershipSignature: string | null;
  holds: boolean | null;
};

const RegistryEntryRef = builder.objectRef<RegistryEntryView>("RegistryEntry").implement({
  fields: (t) => ({
    address: t.exposeString("address"),
    kind: t.exposeString("kind"),
    role: t.exposeString("role"),
    label: t.exposeString("label"),
    statementDigest: t.exposeString("statementDigest"),
    membershipSignature: t.exposeString("membershipSignature", { nullable: true }),
    predicateHolds: t.exposeBoolean("holds", {
      nullable: true,
      description: "Contracts: whether the membership predicate held when observed",
    }),
  }),
});

type RegistryDoc = RegistryDocument;
const RegistryRef = builder.objectRef<RegistryDoc>("AccountRegistry").implement({
  fields: (t) => ({
    registryVersion: t.int({ resolve: (d) => d.registry.registry_version }),
    asOf: t.string({ resolve: (d) => d.registry.as_of }),
    issuedAt: t.int({ resolve: (d) => d.registry.issued_at }),
    accountSetDigest: t.string({ resolve: (d) => d.registry.account_set_digest }),
    entries: t.field({
      type: [RegistryEntryRef],
      resolve: (d) =>
        d.registry.entries.map((e) => ({
          address: e.statement.address,
          kind: e.statement.kind,
          role: e.statement.role,
          label: e.statement.label,
          statementDigest: e.statement_digest,
          membershipSignature: e.membership_signature,
          holds: e.statement.observation?.holds ?? null,
        })),
    }),
    document: t.field({ type: "JSON", resolve: (d) => d }),
  }),
});

builder.queryField("accountRegistry", (t) =>
  t.field({
    type: RegistryRef,
    description:
      "A published registry version: `version`, or the version in force at `block` (the newest issued at or before the block's time, spec 2.6 rule 3), or the latest.",
    args: {
      version: t.arg.int({ description: "Default: the latest" }),
      block: t.arg({ type: BlockHeight, description: "The version in force at this block" }),
    },
    resolve: async (_r, args, ctx) => {
      const registry = ctx.services?.registry;
      if (!registry)
        throw new GraphQLError("the registry is not served by this instance", { extensions: { code: "UNAVAILABLE" } });
      if (args.block && args.version != null)
        throw new GraphQLError("accountRegistry takes a version or a block, not both", {
          extensions: { code: "BAD_USER_INPUT" },
        });
      const version = args.block ? await versionAtBlock(ctx.reports, args.block) : (args.version ?? undefined);
      return asGraphQL(() => registry.version(version));
    },
  }),
);

/** The registry version in force at a block's time; a block before the first version is the caller's error. */
async function versionAtBlock(reports: ReportContext, height: BlockHeightValue): Promise<number> {
  return asUserErrors(async () => {
    const number = (await resolveBlock(reports, height))!;
    const { timestamp } = await reports.base.getBlock({ blockNumber: number });
    const inForce = registryVersionAt(reports.network.registry.versions, Number(timestamp));
    if (!inForce)
      throw new QueryInputError("no_registry_version", `no registry version was in force at block ${number}`, {
        argument: "block",
        block: String(number),
      });
    return inForce.registry_version;
  });
}
