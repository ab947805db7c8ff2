/**
 * Runs the sections on both sides in lockstep: each call is sent by side A and side B into one
 * block, then the outcome (ok, or the decoded revert), the emitted events and the family's views
 * are compared item by item. Calls are encoded from the reference's signature for both sides: the
 * devnet must answer the same selectors.
 */
import {
  type Abi,
  type AbiFunction,
  type Address,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  parseAbiItem,
  toFunctionSignature,
} from "viem";
import type { Chain } from "./chain.js";
import type { Ledger } from "./compare.js";
import type { Pair, Role, Side, SideName } from "./deploy-pair.js";
import { type AddressBook, addressBook, describeLog, describeRevert, formatValue, unionAbi } from "./describe.js";
import { type Arg, argLabel, RoleRef, resolveArgs, rolesIn, whoAddress } from "./role-ref.js";
import type { CallStep, ReadA, Section } from "./step.js";
import { dynamicViews, staticViews, type ViewDef } from "./views.js";

export type LockstepContext = {
  chain: Chain;
  pair: Pair;
  ledger: Ledger;
  log: (line: string) => void;
  /** Calls where the reference did not do what the scenario says it does. */
  scenarioErrors: string[];
};

const SIDES: SideName[] = ["A", "B"];

function functionItem(pair: Pair, to: Role, sig: string): AbiFunction {
  for (const side of [pair.A, pair.B]) {
    const found = (side.abi[to] ?? []).find(
      (i): i is AbiFunction => i.type === "function" && toFunctionSignature(i) === sig,
    );
    if (found) return found;
  }
  return parseAbiItem(`function ${sig}`) as AbiFunction;
}

function missingRoles(roles: Role[], pair: Pair): string[] {
  return roles.flatMap((r) => SIDES.filter((s) => !pair[s].addr[r]).map((s) => `${r} on side ${s}`));
}

class Lockstep {
  private readonly books: Record<SideName, AddressBook>;
  private readonly union: Abi;
  private step = 0;

  constructor(private readonly ctx: LockstepContext) {
    this.books = { A: addressBook(ctx.pair.A), B: addressBook(ctx.pair.B) };
    this.union = unionAbi([...Object.values(ctx.pair.A.abi), ...Object.values(ctx.pair.B.abi)]);
  }

  private async view(side: Side, v: ViewDef, block: bigint | "latest"): Promise<string> {
    const item = functionItem(this.ctx.pair, v.to, v.sig);
    const args = resolveArgs(v.args, side)!;
    const data = encodeFunctionData({ abi: [item], functionName: item.name, args });
    const from = v.from ? whoAddress(v.from, side) : undefined;
    const result = await this.ctx.chain.call({ to: side.addr[v.to]!, data, ...(from ? { from } : {}) }, block);
    const book = this.books[side.name];
    if (!result.ok) return `revert ${describeRevert(result.data, this.union, book)}`;
    try {
      return formatValue(decodeFunctionResult({ abi: [item], functionName: item.name, data: result.data }), book);
    } catch {
      return `undecodable ${result.data}`;
    }
  }

  private readA: ReadA = async (to, sig, args = [], from) => {
    const item = functionItem(this.ctx.pair, to, sig);
    const side = this.ctx.pair.A;
    const data = encodeFunctionData({ abi: [item], functionName: item.name, args: resolveArgs(args, side)! });
    const sender = from ? whoAddress(from, side) : undefined;
    const r = await this.ctx.chain.call({ to: side.addr[to]!, data, ...(sender ? { from: sender } : {}) }, "latest");
    if (!r.ok) throw new Error(`reading ${to}.${sig} on the reference reverted`);
    return BigInt(decodeFunctionResult({ abi: [item], functionName: item.name, data: r.data }) as unknown as bigint);
  };

  private viewRoles(v: ViewDef): Role[] {
    return [v.to, ...rolesIn(v.args), ...(v.from instanceof RoleRef ? [v.from.role] : [])];
  }

  private async compareViews(call: string, views: ViewDef[], block: bigint | "latest"): Promise<void> {
    const values = await Promise.all(
      views.map((v) => Promise.all([this.view(this.ctx.pair.A, v, block), this.view(this.ctx.pair.B, v, block)])),
    );
    for (const [i, v] of views.entries())
      this.ctx.ledger.compare(this.step, call, v.label, values[i]![0], values[i]![1]);
  }

  /** Views whose every role exists on both sides; the rest are reported once as skipped. */
  private usableViews(section: Section, views: ViewDef[]): ViewDef[] {
    const usable = views.filter((v) => missingRoles(this.viewRoles(v), this.ctx.pair).length === 0);
    const dropped = views.filter((v) => !usable.includes(v));
    if (dropped.length > 0) {
      const why = [...new Set(dropped.flatMap((v) => missingRoles(this.viewRoles(v), this.ctx.pair)))].join(", ");
      this.ctx.ledger.skip(
        this.step,
        `[${section.id}] views`,
        `${dropped.length} views not compared`,
        `missing: ${why}`,
      );
    }
    return usable;
  }

  private async outcome(side: Side, hash: Hex): Promise<{ text: string; logs: string[]; block: bigint }> {
    const receipt = await this.ctx.chain.receipt(hash);
    const book = this.books[side.name];
    const block = BigInt(receipt.blockNumber);
    if (receipt.status !== "0x1") {
      return {
        text: `revert ${describeRevert(await this.ctx.chain.revertData(hash), this.union, book)}`,
        logs: [],
        block,
      };
    }
    return { text: "ok", logs: receipt.logs.map((l) => describeLog(l, side, this.union, book)), block };
  }

  private async runCall(section: Section, s: CallStep, views: ViewDef[]): Promise<void> {
    const { pair, chain, ledger } = this.ctx;
    const args: Arg[] = typeof s.args === "function" ? await s.args(this.readA) : s.args;
    const name = s.sig.slice(0, s.sig.indexOf("("));
    const call = `${s.to}.${name}(${args.map(argLabel).join(", ")})${s.value ? ` value ${s.value}` : ""} by ${argLabel(s.from)}`;
    const missing = missingRoles([s.to, ...rolesIn(args), ...(s.from instanceof RoleRef ? [s.from.role] : [])], pair);
    if (missing.length > 0) {
      ledger.skip(this.step, call, "call", `not run: missing ${missing.join(", ")}`);
      return;
    }
    const item = functionItem(pair, s.to, s.sig);
    const hashes: Hex[] = [];
    for (const name of SIDES) {
      const side = pair[name];
      const data = encodeFunctionData({ abi: [item], functionName: item.name, args: resolveArgs(args, side)! });
      hashes.push(
        await chain.send({ from: whoAddress(s.from, side) as Address, to: side.addr[s.to]!, data, value: s.value }),
      );
    }
    await chain.mine();
    const [a, b] = await Promise.all([this.outcome(pair.A, hashes[0]!), this.outcome(pair.B, hashes[1]!)]);
    ledger.calls++;
    ledger.compare(this.step, call, "outcome", a.text, b.text);
    for (let i = 0; i < Math.max(a.logs.length, b.logs.length); i++) {
      ledger.compare(this.step, call, `event[${i}]`, a.logs[i] ?? "(none)", b.logs[i] ?? "(none)");
    }
    await this.compareViews(call, views, a.block);
    const expectedOk = s.expect === "ok";
    const met = expectedOk ? a.text === "ok" : a.text.startsWith("revert") && a.text.includes(s.expect);
    if (!met)
      this.ctx.scenarioErrors.push(`step ${this.step} ${call}: expected ${s.expect}, the reference gave ${a.text}`);
    this.ctx.log(`${String(this.step).padStart(4)} [${section.id}] ${call}: A ${a.text} | B ${b.text}`);
  }

  async runSection(section: Section): Promise<void> {
    const { pair, ledger, chain } = this.ctx;
    const absent = missingRoles([section.family], pair);
    if (absent.length > 0) {
      const reasons = SIDES.filter((s) => pair[s].missing[section.family]).map(
        (s) => `side ${s}: ${pair[s].missing[section.family]}`,
      );
      const calls = section.steps.filter((s) => s.kind === "call").length;
      ledger.skip(
        this.step + 1,
        `[${section.id}] ${section.title}`,
        `section (${calls} calls) not run`,
        reasons.join("; "),
      );
      this.ctx.log(`---- [${section.id}] SKIPPED: ${reasons.join("; ")}`);
      // Time still passes as in a full run, so the later sections see the same clock.
      for (const s of section.steps) {
        this.step++;
        if (s.kind === "time") await chain.increaseTime(s.seconds);
      }
      return;
    }
    this.ctx.log(`---- [${section.id}] ${section.title}`);
    for (const note of section.notes) this.ctx.log(`     note: ${note}`);
    await this.compareViews(
      `[${section.id}] constants`,
      this.usableViews(section, staticViews(section.family)),
      "latest",
    );
    const views = this.usableViews(section, dynamicViews(section.family));
    for (const s of section.steps) {
      this.step++;
      if (s.kind === "time") {
        await chain.increaseTime(s.seconds);
        await this.compareViews(`evm_increaseTime(${s.seconds}) + evm_mine`, views, "latest");
        continue;
      }
      await this.runCall(section, s, views);
    }
  }
}

export async function runLockstep(ctx: LockstepContext, sections: Section[]): Promise<void> {
  const runner = new Lockstep(ctx);
  for (const section of sections) await runner.runSection(section);
}
