/**
 * Alerts as people read them: one pure renderer per kind turns a MonitorMessage into an
 * AlertView (title, plain lines, severity, proof). Destinations shape the view (Slack blocks,
 * Discord embeds, email HTML...) but never re-derive facts, so every destination says the same.
 */
import { createHash } from "node:crypto";
import { formatUnits } from "viem";
import { deliveryId, type MonitorMessage } from "../deliver.js";
import type { AlertView } from "../sinks/sink.js";
import { describeAddress, type RegistryLookup } from "./registry-lookup.js";
import { type AlertTemplate, applyTemplate } from "./template.js";

export type RenderContext = {
  registry: RegistryLookup;
  /** The API the monitor reads: proofs link to it. */
  apiUrl?: string;
  /** Per-kind overrides of the title and lines (see template.ts). */
  templates?: Partial<Record<string, AlertTemplate>>;
};

type Severity = AlertView["severity"];
type Body = { what: string; severity: Severity; lines: string[]; proof: string | null };
// biome-ignore lint/suspicious/noExplicitAny: feed items are the API's JSON, read field by field
type Item = Record<string, any>;

const SEVERITY: Record<string, Severity> = {
  violation: "critical",
  minter_grant: "error",
  minter_role_change: "error",
  psm_pause: "error",
  trigger: "error",
  gap: "error",
  statement_stale: "error",
  venue_unreadable: "error",
  redemption: "warning",
  backing_ratio: "warning",
};

const castReceipt = (tx: unknown) => (typeof tx === "string" ? `cast receipt ${tx} --rpc-url $BASE_RPC_URL` : null);
const blockLink = (ctx: RenderContext, path: string, block: number) =>
  ctx.apiUrl ? `${ctx.apiUrl}${path}?fromBlock=${block}&toBlock=${block}` : null;
const txLine = (i: Item) => (typeof i.txHash === "string" ? [`Transaction: ${i.txHash}`] : []);

/** Exact units from the raw amount when the feed gives it, so no float rounding reaches an operator. */
function amountText(i: Item): string {
  if (typeof i.amountRaw === "string" && typeof i.decimals === "number")
    return `${formatUnits(BigInt(i.amountRaw), i.decimals)} ${i.tokenSymbol ?? ""}`.trim();
  return `${i.amount} ${i.tokenSymbol ?? ""}`.trim();
}

const RENDER: Record<string, (i: Item, ctx: RenderContext) => Body> = {
  violation: (i, ctx) => ({
    what: `Registry violation: ${amountText(i)} left a listed account`,
    severity: "critical",
    lines: [
      `${amountText(i)} moved from a listed account to an address outside the registry's allowed destinations.`,
      `From: ${describeAddress(ctx.registry, i.from)}`,
      `To: ${describeAddress(ctx.registry, i.to)}`,
      `Amount: ${amountText(i)}`,
      ...txLine(i),
      ...(i.registryVersion !== undefined ? [`Registry version: ${i.registryVersion}`] : []),
    ],
    proof: castReceipt(i.txHash) ?? blockLink(ctx, "/api/por/accounts/violations", i.blockNumber),
  }),
  minter_grant: (i, ctx) => ({
    what: `MINTER_ROLE granted on ${i.contractKey ?? i.contract}`,
    severity: "error",
    lines: [
      `MINTER_ROLE was granted on ${i.contractKey} (${i.contract}).`,
      `Account: ${describeAddress(ctx.registry, i.account)}`,
      `By: ${describeAddress(ctx.registry, i.sender)}`,
      ...txLine(i),
    ],
    proof: castReceipt(i.txHash) ?? blockLink(ctx, "/api/events/minter-grants", i.blockNumber),
  }),
  minter_role_change: (i, ctx) => ({
    what: `MINTER_ROLE ${i.granted ? "granted" : "revoked"} on ${i.contractKey ?? i.contract}`,
    severity: "error",
    lines: [
      `MINTER_ROLE was ${i.granted ? "granted to" : "revoked from"} an account on ${i.contractKey} (${i.contract}).`,
      `Account: ${describeAddress(ctx.registry, i.account)}`,
      `By: ${describeAddress(ctx.registry, i.sender)}`,
      ...txLine(i),
    ],
    proof: castReceipt(i.txHash) ?? blockLink(ctx, "/api/events/minter-role-changes", i.blockNumber),
  }),
  psm_pause: (i, ctx) => ({
    what: `PSM paused: ${i.psmKey ?? i.psm}`,
    severity: "error",
    lines: [
      `The PSM ${i.psmKey} (${i.psm}) was paused.`,
      `By: ${describeAddress(ctx.registry, i.account)}`,
      ...txLine(i),
    ],
    proof: castReceipt(i.txHash) ?? blockLink(ctx, "/api/events/psm-pauses", i.blockNumber),
  }),
  redemption: (i, ctx) => ({
    what: `Large redemption: ${i.kusdRedeemed} kUSD`,
    severity: "warning",
    lines: [
      `${i.kusdRedeemed} kUSD redeemed at ${i.psmKey} for ${i.usdcPaidOut} USDC (fee ${i.feeBps} bps).`,
      `Redeemer: ${describeAddress(ctx.registry, i.redeemer)}`,
      `Amount: ${i.kusdRedeemed} kUSD → ${i.usdcPaidOut} USDC`,
      ...txLine(i),
    ],
    proof: castReceipt(i.txHash) ?? blockLink(ctx, "/api/events/redemptions", i.blockNumber),
  }),
  backing_ratio: (i, ctx) => ({
    what:
      i.direction === "restored"
        ? `Backing ratio restored to ${i.ratio} (threshold ${i.threshold})`
        : `Backing ratio below ${i.threshold}: ${i.ratio}`,
    severity: i.direction === "restored" ? "info" : "warning",
    lines: [
      `Backing ratio ${i.previousRatio ?? "n/a"} → ${i.ratio ?? "n/a (nothing outstanding)"} (threshold ${i.threshold}).`,
      `PSM USDC: ${i.psmUSDC} USDC; kUSD outstanding: ${i.kusdOutstanding} kUSD`,
    ],
    proof: blockLink(ctx, "/api/events/backing-ratio", i.blockNumber),
  }),
  statement_stale: (i, ctx) => ({
    what: "Signed statement is stale",
    severity: "error",
    lines: [
      `No fresh signed statement since ${i.since} (limit ${i.limitSeconds} s).`,
      ...(i.reason ? [`Reason: ${i.reason}`] : []),
    ],
    proof: ctx.apiUrl ? `${ctx.apiUrl}/api/por/signed` : null,
  }),
  venue_unreadable: (i, ctx) => ({
    what: "Venue unreadable",
    severity: "error",
    lines: [`The report has not read the venue since ${i.since} (limit ${i.limitSeconds} s).`],
    proof: ctx.apiUrl ? `${ctx.apiUrl}/api/por` : null,
  }),
  trigger: (i, ctx) => ({
    what: `Risk trigger out of its safe state: ${i.trigger?.id ?? i.id}`,
    severity: "error",
    lines: [
      `Trigger ${i.trigger?.id ?? i.id} left its safe state.`,
      `Detail: ${JSON.stringify(i.trigger ?? {})}`,
      ...(i.changedAtBlock != null ? [`Changed at block ${i.changedAtBlock}`] : []),
    ],
    proof: ctx.apiUrl ? `${ctx.apiUrl}/api/risk-status?block=${i.blockNumber}` : null,
  }),
  gap: (i, ctx) => ({
    what: `New gap: ${i.gap?.id ?? i.id}`,
    severity: "error",
    lines: [`A new gap was reported.`, `Detail: ${JSON.stringify(i.gap ?? {})}`],
    proof: ctx.apiUrl ? `${ctx.apiUrl}/api/risk-status?block=${i.blockNumber}` : null,
  }),
};

function fallback(i: Item): Body {
  return {
    what: `${i.kind} ${i.id}`,
    severity: SEVERITY[i.kind] ?? "warning",
    lines: [JSON.stringify(i)],
    proof: null,
  };
}

const when = (m: Item) => `Block ${m.blockNumber}${typeof m.timestamp === "string" ? ` at ${m.timestamp}` : ""}`;

/** One alert, retraction or resolution as a view for people. Pure: same message, same view. */
export function renderAlert(message: MonitorMessage, ctx: RenderContext): AlertView {
  const m = message as Item;
  if (message.type === "retraction") {
    // The retracted item carries the facts; render it, then say it no longer holds.
    // Risk items retract their bare detail; their alerts carried it under the kind's name.
    const facts = m.kind === "trigger" || m.kind === "gap" ? { [m.kind]: m.retracted } : (m.retracted ?? {});
    const item: Item = { ...facts, kind: m.kind, id: m.id, blockNumber: m.blockNumber };
    const body = (RENDER[m.kind] ?? fallback)(item, ctx);
    return finish(message, ctx, {
      title: `Retracted: ${body.what}`,
      severity: "info",
      lines: [`Retracted: ${m.reason ?? "removed by a reorganisation"}.`, ...body.lines, when(item)],
      proof: body.proof,
    });
  }
  if (message.type === "resolved") {
    const body = (RENDER[m.kind] ?? fallback)(m, ctx);
    return finish(message, ctx, {
      title: `Resolved: ${body.what}`,
      severity: "info",
      lines: [
        `Resolved${m.resolvedAt ? ` at ${m.resolvedAt}` : ` at block ${m.blockNumber}`}.`,
        ...(m.since ? [`In effect since ${m.since}.`] : []),
        when(m),
      ],
      proof: body.proof,
    });
  }
  const body = (RENDER[m.kind] ?? fallback)(m, ctx);
  return finish(message, ctx, {
    title: body.what,
    severity: body.severity,
    lines: [...body.lines, when(m), `Severity: ${body.severity}`],
    proof: body.proof,
  });
}

function finish(
  message: MonitorMessage,
  ctx: RenderContext,
  v: { title: string; severity: Severity; lines: string[]; proof: string | null },
): AlertView {
  const t = ctx.templates?.[message.kind];
  return {
    message,
    deliveryId: deliveryId(message),
    severity: v.severity,
    title: t?.title ? applyTemplate(t.title, message) : v.title,
    lines: t?.lines ? t.lines.map((l) => applyTemplate(l, message)) : v.lines,
    proof: v.proof,
  };
}

/** PagerDuty's dedup_key and any receiver's thread key: the same for an alert and its retraction. */
export function alertKey(m: MonitorMessage): string {
  const key = `${m.kind}:${m.id}`;
  // PagerDuty caps dedup_key at 255; a violation id (tx:token:from:to:amount) is near that.
  return key.length <= 255 ? key : `${m.kind}:sha256:${createHash("sha256").update(m.id).digest("hex")}`;
}
