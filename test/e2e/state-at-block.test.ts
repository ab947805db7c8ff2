/**
 * State at a past block (issue 29, item 2): share balances, registry-account token balances, role
 * holders and PSM parameters answered from indexed history equal the chain's own reads at that
 * block (balanceOf, hasRole, the PSM's getters), and the holders listed are exactly the accounts
 * the Transfer logs up to that block leave with a balance.
 */
import { type Address, erc20Abi, getAddress, parseAbi, parseAbiItem } from "viem";
import { describe, expect, it } from "vitest";
import { graphqlClient } from "../helpers/graphql.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const END = BigInt(d.chains.base.historyEndBlock);
const lower = (a: string) => a.toLowerCase();
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const ROLES = parseAbi(["function hasRole(bytes32, address) view returns (bool)"]);
const PSM = parseAbi([
  "function swapFees(address) view returns (uint256)",
  "function tieredFees(address, uint256) view returns (uint256 threshold, uint256 feeBps)",
  "function maxOracleDelay(address) view returns (uint256)",
  "function treasury() view returns (address)",
  "function depegCheckDisabled() view returns (bool)",
  "function solvencyCheckDisabled() view returns (bool)",
  "function paused() view returns (bool)",
]);

const { gql, ok } = graphqlClient(`${s.indexerUrl}/graphql`);

/** Three blocks spread over the scripted history, and its end. */
const BLOCKS = [END / 4n, END / 2n, (END * 3n) / 4n, END];

/** Every account the vault's Transfer logs up to `block` touch, with its balanceOf there. */
async function chainHolders(token: Address, block: bigint): Promise<Map<string, bigint>> {
  const logs = await s.client.getLogs({ address: token, event: TRANSFER, fromBlock: 0n, toBlock: block });
  const accounts = new Set(logs.flatMap((l) => [lower(l.args.from!), lower(l.args.to!)]));
  accounts.delete("0x0000000000000000000000000000000000000000");
  const out = new Map<string, bigint>();
  for (const account of accounts) {
    const balance = await s.client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [account as Address],
      blockNumber: block,
    });
    if (balance > 0n) out.set(account, balance);
  }
  return out;
}

describe("state at a past block", () => {
  it("share balances at each block are exactly the holders balanceOf shows there", async () => {
    await s.indexedThrough(END);
    let compared = 0;
    for (const vault of ["skUSD", "skUSDDeprecated", "vaultV1", "vaultV2"]) {
      for (const block of BLOCKS) {
        const data = await ok(
          `query($b: BigInt!, $v: String!) { shareBalances(block: { number: $b }, where: { vault: $v, shares_gt: "0" }, first: 1000) { totalCount nodes { account shares } } }`,
          { b: String(block), v: s.addr(vault) },
        );
        const indexed = new Map<string, bigint>(
          data.shareBalances.nodes.map((n: any) => [lower(n.account), BigInt(n.shares)]),
        );
        const chain = await chainHolders(s.addr(vault), block);
        expect({ vault, block, holders: Object.fromEntries(indexed) }).toEqual({
          vault,
          block,
          holders: Object.fromEntries(chain),
        });
        expect(data.shareBalances.totalCount).toBe(chain.size);
        compared += chain.size;
      }
    }
    // Not a comparison of empty sets: holders at every block sampled, of every vault.
    expect(compared).toBeGreaterThan(20);
  });

  it("the top skUSD holders at a past block, largest first, in one query", async () => {
    const block = END / 2n;
    const data = await ok(
      `query($b: BigInt!, $v: String!) { shareBalances(block: { number: $b }, where: { vault: $v }, orderBy: shares, orderDirection: desc, first: 3) { nodes { account shares } } }`,
      { b: String(block), v: s.addr("skUSD") },
    );
    const chain = [...(await chainHolders(s.addr("skUSD"), block))]
      .sort(([, a], [, b]) => (a === b ? 0 : a > b ? -1 : 1))
      .slice(0, 3);
    expect(data.shareBalances.nodes.map((n: any) => [lower(n.account), BigInt(n.shares)])).toEqual(chain);
  });

  it("registry accounts' token balances at each block equal balanceOf there", async () => {
    for (const block of BLOCKS) {
      const data = await ok(
        `query($b: BigInt!) { tokenBalances(block: { number: $b }, first: 1000) { nodes { token account balance } } }`,
        { b: String(block) },
      );
      expect(data.tokenBalances.nodes.length).toBeGreaterThan(0);
      for (const n of data.tokenBalances.nodes) {
        const balance = await s.client.readContract({
          address: n.token,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [n.account],
          blockNumber: block,
        });
        expect({ block, token: n.token, account: n.account, balance: BigInt(n.balance) }).toEqual({
          block,
          token: n.token,
          account: n.account,
          balance,
        });
      }
    }
  });

  it("role holders at each block agree with hasRole there", async () => {
    for (const block of BLOCKS) {
      const data = await ok(
        `query($b: BigInt!) { roleHolders(block: { number: $b }, first: 1000) { nodes { contract role account active sinceBlock } } }`,
        { b: String(block) },
      );
      expect(data.roleHolders.nodes.length).toBeGreaterThan(0);
      for (const h of data.roleHolders.nodes) {
        expect(BigInt(h.sinceBlock)).toBeLessThanOrEqual(block);
        const holds = await s.client.readContract({
          address: h.contract,
          abi: ROLES,
          functionName: "hasRole",
          args: [h.role, h.account],
          blockNumber: block,
        });
        expect({ block, ...h, holds }).toEqual({ block, ...h, holds: h.active });
      }
    }
  });

  it("PSM parameters at each block equal the PSM's getters there", async () => {
    const usdc = s.addr("usdc");
    let compared = 0;
    for (const key of Object.keys(d.chains.base.contracts).filter((k) => k.startsWith("psm"))) {
      const psm = s.addr(key);
      for (const block of BLOCKS) {
        const data = await ok(
          `query($b: BigInt!) { psmParameters(block: { number: $b }) { psm { key address } paused treasury depegCheckDisabled solvencyCheckDisabled stables { stable feeBps announcedCap tiers { threshold feeBps } maxOracleDelaySeconds } } }`,
          { b: String(block) },
        );
        const p = data.psmParameters.find((x: any) => x.psm.key === key);
        if (!p) continue; // not deployed yet at this block
        const read = <T>(functionName: string, args: unknown[] = []) =>
          s.client
            .readContract({
              address: psm,
              abi: PSM,
              functionName: functionName as never,
              args: args as never,
              blockNumber: block,
            })
            .then((v) => v as T)
            .catch(() => null); // a getter the older PSM lacks
        expect(p.paused, `${key}@${block} paused`).toBe(await read<boolean>("paused"));
        const treasury = await read<Address>("treasury");
        if (treasury !== null)
          expect(p.treasury, `${key}@${block} treasury`).toBe(
            treasury === "0x0000000000000000000000000000000000000000" ? null : getAddress(treasury),
          );
        for (const flag of ["depegCheckDisabled", "solvencyCheckDisabled"]) {
          const v = await read<boolean>(flag);
          if (v !== null) expect(p[flag], `${key}@${block} ${flag}`).toBe(v);
        }
        const stable = p.stables.find((x: any) => lower(x.stable) === lower(usdc));
        const fee = await read<bigint>("swapFees", [usdc]);
        expect(stable ? BigInt(stable.feeBps) : 0n, `${key}@${block} fee`).toBe(fee);
        if (stable) {
          const tiers: { threshold: bigint; feeBps: bigint }[] = [];
          for (let i = 0n; ; i++) {
            const t = await read<[bigint, bigint]>("tieredFees", [usdc, i]);
            if (!t) break;
            tiers.push({ threshold: t[0], feeBps: t[1] });
          }
          expect(
            stable.tiers.map((t: any) => ({ threshold: BigInt(t.threshold), feeBps: BigInt(t.feeBps) })),
            `${key}@${block} tiers`,
          ).toEqual(tiers);
          const delay = await read<bigint>("maxOracleDelay", [usdc]);
          if (delay !== null) expect(BigInt(stable.maxOracleDelaySeconds)).toBe(delay);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(3);
  });

  it("the registry listing at each block is the version issued last before the block's time", async () => {
    const versions = [...d.registry.versions].sort((a, b) => a.issued_at - b.issued_at);
    let listed = 0;
    for (const block of BLOCKS) {
      const { timestamp } = await s.client.getBlock({ blockNumber: block });
      const expected = versions.filter((v) => v.issued_at <= Number(timestamp)).at(-1);
      const r = await gql(
        `query($b: BigInt!) { accountRegistry(block: { number: $b }) { registryVersion entries { address } } }`,
        { b: String(block) },
      );
      if (!expected) {
        expect(r.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
        continue;
      }
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      expect(r.data.accountRegistry.registryVersion).toBe(expected.registry_version);
      expect(r.data.accountRegistry.entries.map((e: any) => lower(e.address)).sort()).toEqual(
        expected.entries.map((e) => lower(e.address)).sort(),
      );
      listed++;
    }
    expect(listed).toBeGreaterThan(0);
  });

  it("a block by hash answers as its number; a block past the head is refused naming the head", async () => {
    const block = await s.client.getBlock({ blockNumber: END / 2n });
    const q = `query($h: Block_height!) { shareBalances(block: $h, first: 5) { nodes { account shares } } }`;
    const byNumber = await ok(q, { h: { number: String(block.number) } });
    const byHash = await ok(q, { h: { hash: block.hash } });
    expect(byHash).toEqual(byNumber);
    const head = await s.indexedBlock();
    const r = await gql(q, { h: { number: String(head + 1_000_000) } });
    const e = r.errors?.[0];
    expect(e?.extensions?.code).toBe("BAD_USER_INPUT");
    const named = String(e?.extensions?.indexedHead);
    expect(BigInt(named)).toBeGreaterThanOrEqual(BigInt(head));
    expect(e?.message).toContain(named);
  });
});
