/**
 * The devnet as the operator documents it: `cast call` answers for kUSD supply, MINTER_ROLE,
 * PSM reserves and the skUSD share price, each checked against an independent derivation from
 * the chain's own logs; the story the later issues rely on; and the re-use of a running devnet.
 */

import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseAbiItem,
  stringToHex,
  zeroAddress,
} from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { type Deployment, type RegistryVersionConfig, readDeployment } from "../../devnet/deployment.js";
import { startDevnet } from "../../devnet/devnet.js";
import { cast } from "../helpers/cast.js";

const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const SWAP = parseAbiItem(
  "event Swap(address indexed user, address indexed fromToken, address indexed toToken, uint256 amount, uint256 fee)",
);
const WITHDRAW = parseAbiItem(
  "event Withdraw(address indexed sender, address indexed receiver, address indexed owner, uint256 assets, uint256 shares)",
);
const ROLE_GRANTED = parseAbiItem(
  "event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)",
);
const ROLE_REVOKED = parseAbiItem(
  "event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)",
);
const MINTER_ROLE = keccak256(stringToHex("MINTER_ROLE"));

let d: Deployment;
let client: PublicClient;
let block: bigint;
const rpc = () => d.chains.base.rpcUrl;
const addr = (name: string) => d.chains.base.contracts[name]!.address;
const lower = (a: string) => a.toLowerCase();
const castCall = (to: Address, sig: string, ...args: string[]) =>
  cast(["call", to, sig, ...args, "--rpc-url", rpc(), "--block", String(block)]);

async function transfers(token: Address) {
  return client.getLogs({ address: token, event: TRANSFER, fromBlock: 0n, toBlock: block });
}

beforeAll(async () => {
  d = readDeployment(inject("deploymentFile"));
  client = createPublicClient({ transport: http(rpc()) }) as PublicClient;
  block = BigInt(d.chains.base.historyEndBlock);
});

describe("devnet chains", () => {
  it("runs chain 8453 and chain 1, with history that never runs ahead of the wall clock", async () => {
    expect(await client.getChainId()).toBe(8453);
    const eth = createPublicClient({ transport: http(d.chains.ethereum.rpcUrl) });
    expect(await eth.getChainId()).toBe(1);
    for (const c of [client, eth]) {
      const latest = await c.getBlock();
      expect(Number(latest.timestamp)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    }
    const first = await client.getBlock({ blockNumber: 1n });
    expect(new Date(Number(first.timestamp) * 1000).toISOString().slice(0, 10)).toBe("2026-05-14");
    // Ponder's finality depth on 8453 is 30 blocks: the padding puts the whole history behind it.
    expect(Number(await client.getBlockNumber()) - d.chains.base.historyEndBlock).toBeGreaterThanOrEqual(30);
  });

  it("records code at every contract and keys that derive their addresses", async () => {
    for (const chain of [d.chains.base, d.chains.ethereum]) {
      const c = createPublicClient({ transport: http(chain.rpcUrl) });
      for (const [name, record] of Object.entries(chain.contracts)) {
        expect(await c.getCode({ address: record.address }), name).toMatch(/^0x[0-9a-f]{10,}/);
      }
    }
    for (const account of Object.values(d.accounts))
      expect(privateKeyToAddress(account.privateKey)).toBe(account.address);
  });
});

describe("the operator's documented cast calls", () => {
  it("kUSD totalSupply equals mints minus burns in the Transfer logs", async () => {
    const logs = await transfers(addr("kUSD"));
    const minted = logs.filter((l) => l.args.from === zeroAddress).reduce((s, l) => s + l.args.value!, 0n);
    const burned = logs.filter((l) => l.args.to === zeroAddress).reduce((s, l) => s + l.args.value!, 0n);
    // Only the live PSM burns, when it redeems with minting on: each burn is a Transfer from it to zero.
    expect(burned).toBeGreaterThan(0n);
    expect(
      logs.filter((l) => l.args.to === zeroAddress).every((l) => lower(l.args.from!) === lower(addr("psmMint"))),
    ).toBe(true);
    expect(BigInt(await castCall(addr("kUSD"), "totalSupply()(uint256)"))).toBe(minted - burned);
  });

  it("hasRole(MINTER_ROLE, psm) agrees with the replayed role events: only the live mint PSM holds it", async () => {
    const [granted, revoked] = await Promise.all([
      client.getLogs({
        address: addr("kUSD"),
        event: ROLE_GRANTED,
        args: { role: MINTER_ROLE },
        fromBlock: 0n,
        toBlock: block,
      }),
      client.getLogs({
        address: addr("kUSD"),
        event: ROLE_REVOKED,
        args: { role: MINTER_ROLE },
        fromBlock: 0n,
        toBlock: block,
      }),
    ]);
    const events = [...granted.map((l) => ({ l, on: true })), ...revoked.map((l) => ({ l, on: false }))].sort(
      (a, b) => Number(a.l.blockNumber - b.l.blockNumber) || a.l.logIndex - b.l.logIndex,
    );
    const holders = new Map<string, boolean>();
    for (const { l, on } of events) holders.set(lower(l.args.account!), on);
    for (const psm of ["psmMint", "psmRetiredMint", "psmRedeemReserve", "vaultV2"]) {
      const viaCast = await castCall(addr("kUSD"), "hasRole(bytes32,address)(bool)", MINTER_ROLE, addr(psm));
      expect(viaCast, psm).toBe(String(holders.get(lower(addr(psm))) ?? false));
      expect(holders.has(lower(addr(psm))), `${psm} held MINTER_ROLE at some point`).toBe(true);
    }
    expect([...holders.entries()].filter(([, on]) => on).map(([a]) => a)).toEqual([lower(addr("psmMint"))]);
  });

  it("USDC balanceOf each PSM equals its USDC transfers in minus out", async () => {
    const logs = await transfers(addr("usdc"));
    for (const psm of ["psmMint", "psmRetiredMint", "psmRedeemReserve"]) {
      const a = lower(addr(psm));
      const net = logs.reduce(
        (s, l) => s + (lower(l.args.to!) === a ? l.args.value! : 0n) - (lower(l.args.from!) === a ? l.args.value! : 0n),
        0n,
      );
      expect(BigInt(await castCall(addr("usdc"), "balanceOf(address)(uint256)", addr(psm))), psm).toBe(net);
      expect(net).toBeGreaterThan(0n);
    }
  });

  it("skUSD convertToAssets(1e24) follows the ERC-4626 formula with 24-decimal shares", async () => {
    const read = (fn: "totalAssets" | "totalSupply") =>
      client.readContract({
        address: addr("skUSD"),
        abi: [parseAbiItem(`function ${fn}() view returns (uint256)`)],
        functionName: fn,
        blockNumber: block,
      });
    const [assets, supply] = await Promise.all([read("totalAssets"), read("totalSupply")]);
    const expected = (10n ** 24n * (assets + 1n)) / (supply + 10n ** 6n);
    expect(BigInt(await castCall(addr("skUSD"), "convertToAssets(uint256)(uint256)", (10n ** 24n).toString()))).toBe(
      expected,
    );
    expect(await castCall(addr("skUSD"), "decimals()(uint8)")).toBe("24");
    expect(expected).toBeGreaterThan(10n ** 18n); // yield has accrued since launch
  });
});

describe("the scripted story", () => {
  it("has redemptions against all three PSMs by the founder wallet, and by two outside wallets on the live PSM", async () => {
    const swaps = await client.getLogs({
      event: SWAP,
      args: { fromToken: addr("kUSD") },
      fromBlock: 0n,
      toBlock: block,
    });
    const byPsm = new Map<string, Address[]>();
    for (const s of swaps) byPsm.set(lower(s.address), [...(byPsm.get(lower(s.address)) ?? []), s.args.user!]);
    for (const psm of ["psmMint", "psmRetiredMint", "psmRedeemReserve"])
      expect(byPsm.get(lower(addr(psm)))?.length, psm).toBeGreaterThan(0);
    const founder = lower(d.accounts.operator!.address);
    for (const psm of ["psmMint", "psmRetiredMint", "psmRedeemReserve"])
      expect(byPsm.get(lower(addr(psm)))!.map(lower), psm).toContain(founder);
    const outside = new Set(swaps.map((s) => lower(s.args.user!)).filter((r) => r !== founder));
    expect(outside).toEqual(
      new Set([lower(d.accounts.externalRedeemer!.address), lower(d.accounts.ladderWalker!.address)]),
    );
    // The fee-ladder desk: six redemptions, one unit either side of each tier boundary.
    expect(swaps.filter((s) => lower(s.args.user!) === lower(d.accounts.ladderWalker!.address)).length).toBe(6);
  });

  it("leaves dust shares and an orphan in the superseded vault", async () => {
    const v = addr("skUSDDeprecated");
    const supply = BigInt(await castCall(v, "totalSupply()(uint256)"));
    const assets = BigInt(await castCall(v, "totalAssets()(uint256)"));
    const redeemable = BigInt(await castCall(v, "previewRedeem(uint256)(uint256)", supply.toString()));
    expect(supply).toBe(850_000n);
    expect(assets - redeemable).toBeGreaterThan(0n);
    const external = BigInt(await castCall(v, "balanceOf(address)(uint256)", d.accounts.externalDustHolder!.address));
    expect(external).toBe(250_000n);
  });

  it("contains exactly one transfer that breaks the account-registry rule", async () => {
    // An independent reading of spec 2.6 rule 2 over the raw logs: a transfer out of a listed
    // account is fine when it goes to a listed account, burns, pays a PSM redemption or an
    // ERC-4626 withdrawal (or a withdrawal-queue claim) in the same transaction, is a flash loan returned in the same
    // transaction, or deposits into a venue disclosed before it.
    const versions = [...d.registry.versions].sort((a, b) => a.issued_at - b.issued_at);
    const inForce = (t: number): RegistryVersionConfig | undefined => versions.filter((v) => v.issued_at <= t).pop();
    const tokens = ["usdc", "kUSD", "weth", "skUSD", "skUSDDeprecated"].map(addr);
    const all = (await Promise.all(tokens.map(transfers))).flat();
    const swaps = await client.getLogs({ event: SWAP, fromBlock: 0n, toBlock: block });
    const withdrawals = await client.getLogs({ event: WITHDRAW, fromBlock: 0n, toBlock: block });
    const queueClaims = await client.getLogs({
      event: parseAbiItem("event WithdrawalClaimed(address indexed user, uint256 requestId, uint256 assets)"),
      fromBlock: 0n,
      toBlock: block,
    });
    const times = new Map<bigint, number>();
    const timeOf = async (n: bigint) => {
      if (!times.has(n)) times.set(n, Number((await client.getBlock({ blockNumber: n })).timestamp));
      return times.get(n)!;
    };

    const violations: Hex[] = [];
    for (const t of all) {
      const version = inForce(await timeOf(t.blockNumber));
      const listed = new Set((version?.entries ?? []).map((e) => lower(e.address)));
      const [from, to] = [lower(t.args.from!), lower(t.args.to!)];
      if (!listed.has(from) || listed.has(to) || to === zeroAddress) continue;
      const sameTx = (l: { transactionHash: Hex }) => l.transactionHash === t.transactionHash;
      if (swaps.some((s) => sameTx(s) && lower(s.address) === from && lower(s.args.user!) === to)) continue;
      if (withdrawals.some((w) => sameTx(w) && lower(w.address) === from && lower(w.args.receiver!) === to)) continue;
      // The deposit vaults' withdrawal queue pays the claiming owner.
      if (queueClaims.some((w) => sameTx(w) && lower(w.address) === from && lower(w.args.user!) === to)) continue;
      if (
        all.some(
          (r) =>
            sameTx(r) &&
            r.address === t.address &&
            lower(r.args.from!) === to &&
            lower(r.args.to!) === from &&
            r.args.value! >= t.args.value!,
        )
      )
        continue;
      if (version?.disclosed_venue_deposits.some((v) => lower(v.address) === to)) continue;
      violations.push(t.transactionHash);
    }
    expect(violations).toEqual([d.landmarks.violation!.tx]);
  });

  it("writes the vault v1 mirror from the venue account's equity at the time of each update", async () => {
    const updates = await client.getLogs({
      address: addr("vaultV1"),
      event: parseAbiItem("event L1AssetsUpdated(uint256 oldAmount, uint256 newAmount, uint256 timestamp)"),
      fromBlock: 0n,
      toBlock: block,
    });
    expect(updates.length).toBeGreaterThan(20);
    const last = updates.at(-1)!;
    // Ask a venue that lives at the moment of the update, through the real API.
    const { startVenueServer } = await import("../../devnet/venue/server.js");
    const venue = await startVenueServer({
      port: 0,
      hedgeAccount: d.venue.hedgeAccount,
      now: () => Number(last.args.timestamp),
    });
    try {
      const post = async (body: object) =>
        (await fetch(`${venue.url}/info`, { method: "POST", body: JSON.stringify(body) })).json() as Promise<any>;
      const state = await post({ type: "clearinghouseState", user: d.venue.hedgeAccount });
      const mids = await post({ type: "allMids" });
      const mirrorEth = Number(last.args.newAmount) / 1e18;
      expect(mirrorEth).toBeCloseTo(Number(state.marginSummary.accountValue) / Number(mids.ETH), 6);
    } finally {
      await venue.close();
    }
  });
});

describe("re-running the devnet", () => {
  it("reuses chains that already hold the deployment", async () => {
    const port = (url: string) => Number(new URL(url).port);
    const started = Date.now();
    const again = await startDevnet({
      deploymentFile: inject("deploymentFile"),
      ports: { base: port(d.chains.base.rpcUrl), ethereum: port(d.chains.ethereum.rpcUrl), venue: port(d.venue.url) },
    });
    expect(again.reused).toBe(true);
    expect(again.venue).toBeNull(); // the venue was up too: nothing new to stop
    expect(Date.now() - started).toBeLessThan(5_000);
    await again.stop();
  });
});
