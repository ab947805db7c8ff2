/**
 * A reader who trusts only Ethereum (issue 60): `kusd-verify --l1-rpc` proves the statement's Base
 * block from the output roots the devnet's proposer posts on the ethereum devnet, as Base's posts
 * them on Ethereum, then executes every read over state proven against that block's hash. (a) the
 * live statement and /api/por at its block verify to Ethereum with no read taken on the RPC's word;
 * (b) collusion: a fork of the Base devnet with one transaction changed (more USDC in a PSM), and a
 * statement signed over the fork's figures, passes --proofs against the fork's own RPC and fails
 * with --l1-rpc, naming the block whose hash no posted root commits to; (d) a statement newer than
 * the last posted root is pending (exit 3), with the block of the root that will cover it;
 * (e) the game covering the statement blacklisted by the guardian, as Base's guardian can (on a copy
 * of the ethereum devnet): the game is reported as such and the statement resting on it fails. (c), an RPC whose eth_call answers
 * differ from its proofs, is rederive.test.ts (f).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASE_PROOF_SYSTEM, GAME_STATUS, STATEMENT_COPIES, signPayload, withSignedCopies } from "@kusd/core";
import { createPublicClient, createWalletClient, erc20Abi, type Hex, http, type PublicClient, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { anchorStateRegistryAbi } from "../../abis/index.js";
import { startAnvil } from "../../devnet/anvil.js";
import { devnetChain } from "../../devnet/chains.js";
import { networkFileOf } from "../../devnet/network-document.js";
import { type GameRecord, gameCount, readGameState, readGames } from "../../devnet/proofs/games.js";
import { DEVNET_PROOF_PARAMS, PROOF_KEYS } from "../../devnet/proofs/params.js";
import { networkOf, rederiveStatement } from "../../packages/verify/src/index.js";
import { runVerify } from "../../packages/verify/src/node.js";
import { freePort } from "../helpers/ports.js";
import { stack } from "../helpers/stack.js";

const s = stack();
const d = s.deployment;
const network = networkFileOf(inject("deploymentFile"));
const l1Rpc = d.chains.ethereum.rpcUrl;
const l1 = createPublicClient({ chain: devnetChain(1, l1Rpc), transport: http(l1Rpc) }) as PublicClient;
const attestationKey = privateKeyToAccount(d.accounts.attestationSigner!.privateKey);
const { blockInterval, intermediateBlockInterval } = DEVNET_PROOF_PARAMS;
const dir = mkdtempSync(join(tmpdir(), "kusd-verify-l1-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let live: { file: string; payload: any };
let bindingFile: string;
beforeAll(async () => {
  await s.statementPublished();
  const text = await (await fetch(`${s.indexerUrl}/api/por/signed`)).text();
  live = { file: join(dir, "live.json"), payload: JSON.parse(JSON.parse(text).signed_payload_canonical) };
  writeFileSync(live.file, text);
  bindingFile = join(dir, "binding.json");
  writeFileSync(bindingFile, await (await fetch(`${s.indexerUrl}/api/por/signer-registry`)).text());
});

async function verify(file: string, rpc: string, ...extra: string[]) {
  const argv = [file, "--binding", bindingFile, "--operator", d.signers.operator, "--no-freshness", "--rpc", rpc];
  const started = performance.now();
  const { exitCode, output } = await runVerify([...argv, "--network", network, "--json", ...extra]);
  return { exitCode, result: JSON.parse(output), ms: Math.round(performance.now() - started) };
}

const check = (result: any, name: string) => result.checks.find((c: any) => c.name === name);

/** The first multiple of the interval at or after `block`: the Base block of the game that covers it. */
const gameBlockOf = (block: number) => Math.ceil(block / blockInterval) * blockInterval;

/** The proposer's games that claim `l2Block`, read with plain eth_call (an independent source). */
async function proposedAt(l2Block: number): Promise<GameRecord[]> {
  const games = await readGames(l1, 0, await gameCount(l1));
  return games.filter((g) => g.creator === PROOF_KEYS.proposer.address && g.l2SequenceNumber === BigInt(l2Block));
}

/** Mines Base blocks up to the game block covering `block`, and waits for the proposer's game there. */
async function coveredOnL1(block: number): Promise<GameRecord> {
  const target = gameBlockOf(block);
  // One block at a time, as a chain grows (the indexer beside it follows each).
  while (Number(await s.client.getBlockNumber()) < target) await s.client.request({ method: "evm_mine" as never });
  // A loop, not expect.poll: a beforeAll calls it too.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [game] = await proposedAt(target);
    if (game) {
      await s.caughtUp();
      return game;
    }
    if (Date.now() > deadline) throw new Error(`no game of the proposer for Base block ${target} within 30 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Signs `payload` with the devnet's attestation key, as the service publishes a statement. */
async function resigned(payload: Record<string, unknown>, name: string): Promise<string> {
  const signed = await signPayload(attestationKey, payload as Record<string, unknown> & { timestamp: number });
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(withSignedCopies(signed, STATEMENT_COPIES)));
  return file;
}

/** The statement's figures as `rpc` has them at `block`, signed: what an operator colluding with that RPC would publish. */
async function statementAt(rpc: string, block: { number: number; hash: Hex }, name: string): Promise<string> {
  const view = await rederiveStatement(
    { ...live.payload, report_block: block.number, report_block_hash: block.hash },
    { rpc, network: networkOf(JSON.parse(readFileSync(network, "utf8")), rpc) },
  );
  return resigned({ ...view.rederived, timestamp: live.payload.timestamp }, name);
}

// PGlite pass only: the verifier reads the chains, not the database; on the PostgreSQL pass its
// mining beside rederive-yield-board-and-reads.test.ts twice left the shared indexer 2 blocks short
// of the head (CI at a9cac43 and 2454f0f).
describe.skipIf(Boolean(process.env.DATABASE_URL))(
  "kusd-verify --l1-rpc: the statement's block proven from the roots posted on Ethereum",
  () => {
    it("(d) a statement newer than the last posted root is pending (exit 3), naming the game block that will cover it", async () => {
      // The head, moved off a game block so that no root can cover it yet.
      if (Number(await s.client.getBlockNumber()) % blockInterval === 0)
        await s.client.request({ method: "evm_mine" as never });
      const head = await s.client.getBlock();
      const file = await statementAt(s.rpcUrl, { number: Number(head.number), hash: head.hash }, "head.json");
      const newest = (await readGames(l1, 0, await gameCount(l1)))
        .filter((g) => g.creator === PROOF_KEYS.proposer.address)
        .reduce((a, g) => (g.l2SequenceNumber > a ? g.l2SequenceNumber : a), 0n);
      expect(newest).toBeLessThan(head.number);
      const { exitCode, result } = await verify(file, s.rpcUrl, "--l1-rpc", l1Rpc);
      console.log(`(d) exit ${exitCode}: ${check(result, "ethereum").detail}`);
      expect(exitCode).toBe(3);
      expect(result.ethereum).toMatchObject({ status: "pending", next: { block: gameBlockOf(Number(head.number)) } });
      expect(result.checks.filter((c: any) => !c.ok).map((c: any) => c.name)).toEqual(["ethereum"]);
      expect(result.verified).toBe(false);
    });

    it("(a) the live statement and /api/por at its block verify to Ethereum, every read executed over proven state", async () => {
      const block = live.payload.report_block as number;
      const game = await coveredOnL1(block);
      const { exitCode, result, ms } = await verify(live.file, s.rpcUrl, "--l1-rpc", l1Rpc);
      const ethereum = check(result, "ethereum");
      console.log(
        `(a) statement at block ${block}: exit ${exitCode} in ${ms} ms\n  ethereum: ${ethereum.detail}\n  proofs: ${check(result, "proofs").detail}`,
      );
      expect(result.checks.filter((c: any) => !c.ok)).toEqual([]);
      expect(exitCode).toBe(0);
      expect(ethereum.ok).toBe(true);
      // The game and the root the verifier rested on, against the factory's list read with eth_call.
      const rootIndex = Math.ceil((block - (gameBlockOf(block) - blockInterval)) / intermediateBlockInterval) - 1;
      expect(result.ethereum.game).toMatchObject({
        address: game.address,
        rootIndex,
        root: game.intermediateRoots[rootIndex],
      });
      expect(result.ethereum.blockHash).toBe(live.payload.report_block_hash);
      expect(result.proofs.anchor.source).toContain(`proven from Ethereum block ${result.ethereum.l1.number}`);
      const statuses = result.proofs.reads.map((r: any) => r.status);
      expect(statuses.length).toBeGreaterThan(100);
      expect(statuses.every((x: string) => x === "proven")).toBe(true);

      const por = join(dir, "por.json");
      writeFileSync(por, await (await fetch(`${s.indexerUrl}/api/por?block=${block}`)).text());
      const { exitCode: porExit, output } = await runVerify([
        "--report",
        por,
        "--rpc",
        s.rpcUrl,
        "--network",
        network,
        "--l1-rpc",
        l1Rpc,
        "--json",
      ]);
      const report = JSON.parse(output);
      const figures = report.figures.map((f: any) => f.proof);
      console.log(
        `(a) /api/por at block ${block}: exit ${porExit}; ${check(report, "ethereum").detail}; figures proven ${figures.filter((p: string) => p === "proven").length}, unproven ${figures.filter((p: string) => p === "unproven").length}`,
      );
      expect(porExit).toBe(0);
      expect(report.ethereum.blockHash).toBe(live.payload.report_block_hash);
      expect(report.proofs.reads.every((r: any) => r.status === "proven")).toBe(true);
    });

    describe("(b) collusion: a fork of the Base devnet whose RPC serves its own consistent chain", () => {
      let fork: Awaited<ReturnType<typeof startAnvil>>;
      let colluded: string;
      let forkedRoot: { number: number; hash: Hex };
      beforeAll(async () => {
        // A copy of the Base devnet at its head: the same blocks and hashes (anvil_dumpState, anvil_loadState).
        const state = await s.client.request({ method: "anvil_dumpState" as never });
        fork = await startAnvil({ port: await freePort(), chainId: 8453, timestamp: Math.floor(Date.now() / 1000) });
        const forked = createPublicClient({ chain: devnetChain(8453, fork.rpcUrl), transport: http(fork.rpcUrl) });
        await forked.request({ method: "anvil_loadState" as never, params: [state] as never });
        const parent = await forked.getBlock();
        expect((await s.client.getBlock({ blockNumber: parent.number })).hash).toBe(parent.hash);
        // The fork's next block: one transaction, USDC moved from the redeem reserve into the mint PSM.
        const usdc = s.addr("usdc");
        const from = s.addr("psmRedeemReserve");
        await forked.request({ method: "anvil_impersonateAccount" as never, params: [from] as never });
        await forked.request({ method: "anvil_setBalance" as never, params: [from, toHex(10n ** 18n)] as never });
        const amount =
          (await forked.readContract({ address: usdc, abi: erc20Abi, functionName: "balanceOf", args: [from] })) / 2n;
        expect(amount).toBeGreaterThan(0n);
        const wallet = createWalletClient({ chain: devnetChain(8453, fork.rpcUrl), transport: http(fork.rpcUrl) });
        const hash = await wallet.writeContract({
          account: from,
          address: usdc,
          abi: erc20Abi,
          functionName: "transfer",
          args: [s.addr("psmMint"), amount],
        });
        const block = Number((await forked.waitForTransactionReceipt({ hash })).blockNumber);
        expect(block).toBe(Number(parent.number) + 1);
        // Up to the block whose root covers it, so the fork has every block a reader would check.
        const rootBlock = Math.ceil(block / intermediateBlockInterval) * intermediateBlockInterval;
        if (rootBlock > block)
          await forked.request({ method: "anvil_mine" as never, params: [toHex(rootBlock - block)] as never });
        forkedRoot = { number: rootBlock, hash: (await forked.getBlock({ blockNumber: BigInt(rootBlock) })).hash };
        // The real chain goes on, and its root for that block is posted on Ethereum.
        await coveredOnL1(block);
        const forkedBlock = await forked.getBlock({ blockNumber: BigInt(block) });
        colluded = await statementAt(fork.rpcUrl, { number: block, hash: forkedBlock.hash }, "colluded.json");
        const signed = JSON.parse(JSON.parse(readFileSync(colluded, "utf8")).signed_payload_canonical);
        const real = await s.client.readContract({
          address: usdc,
          abi: erc20Abi,
          functionName: "balanceOf",
          args: [s.addr("psmMint")],
          blockNumber: BigInt(block),
        });
        expect(BigInt(Math.round(signed.psm_reserves_usdc.psmMint * 1e6))).toBeGreaterThan(real);
      });
      afterAll(() => fork?.stop());

      it("passes --proofs against the fork's own RPC: its header, state root and proofs agree", async () => {
        const { result } = await verify(colluded, fork.rpcUrl, "--proofs");
        console.log(
          `(b) fork, --proofs: ${check(result, "proofs").detail}; failing: ${
            result.checks
              .filter((c: any) => !c.ok)
              .map((c: any) => c.name)
              .join(", ") || "none"
          }`,
        );
        expect(check(result, "proofs").ok).toBe(true);
        expect(check(result, "figures").ok).toBe(true);
      });

      it("fails with --l1-rpc, naming the block whose hash no posted root commits to", async () => {
        const { exitCode, result } = await verify(colluded, fork.rpcUrl, "--l1-rpc", l1Rpc);
        const ethereum = check(result, "ethereum");
        console.log(`(b) fork, --l1-rpc: exit ${exitCode}: ${ethereum.detail}`);
        expect(exitCode).toBe(1);
        expect(ethereum.ok).toBe(false);
        expect(ethereum.detail).toContain(
          `no root posted on L1 commits to Base block ${forkedRoot.number} with hash ${forkedRoot.hash}`,
        );
        expect(result.verified).toBe(false);
      });
    });

    it("(e) the game covering the statement blacklisted by the guardian: reported as such, and the statement fails", async () => {
      const block = live.payload.report_block as number;
      const game = await coveredOnL1(block);
      // On a copy of the ethereum devnet (the same blocks and hashes): blacklisting an honest game on
      // the shared one would stop its proposer, as on Base (the same proposal cannot be made twice).
      const state = await l1.request({ method: "anvil_dumpState" as never });
      const copy = await startAnvil({ port: await freePort(), chainId: 1, timestamp: Math.floor(Date.now() / 1000) });
      try {
        const ethereum = createPublicClient({
          chain: devnetChain(1, copy.rpcUrl),
          transport: http(copy.rpcUrl),
        }) as PublicClient;
        await ethereum.request({ method: "anvil_loadState" as never, params: [state] as never });
        const guardian = createWalletClient({
          account: privateKeyToAccount(PROOF_KEYS.guardian.privateKey),
          chain: devnetChain(1, copy.rpcUrl),
          transport: http(copy.rpcUrl),
        });
        const registry = { address: BASE_PROOF_SYSTEM.anchorStateRegistry, abi: anchorStateRegistryAbi } as const;
        const hash = await guardian.writeContract({
          ...registry,
          functionName: "blacklistDisputeGame",
          args: [game.address],
        });
        const receipt = await ethereum.waitForTransactionReceipt({ hash });
        expect(receipt.status).toBe("success");
        const judged = await readGameState(ethereum, game.address);
        expect(judged.blacklisted).toBe(true);
        expect(judged.status).not.toBe(GAME_STATUS.CHALLENGER_WINS);
        const { exitCode, result } = await verify(live.file, s.rpcUrl, "--l1-rpc", copy.rpcUrl);
        const verdict = check(result, "ethereum");
        console.log(`(e) exit ${exitCode}: ${verdict.detail}`);
        expect(exitCode).toBe(1);
        expect(result.ethereum.l1).toMatchObject({ number: Number(receipt.blockNumber), hash: receipt.blockHash });
        expect(verdict.detail).toContain(`every game covering Base block ${block} is invalid`);
        expect(result.ethereum.games).toContainEqual(
          expect.objectContaining({
            address: game.address,
            standing: "invalid",
            detail: expect.stringContaining("blacklisted"),
          }),
        );
        // The same statement on the real ethereum devnet, where the game is not blacklisted: proven.
        const real = await verify(live.file, s.rpcUrl, "--l1-rpc", l1Rpc);
        expect(check(real.result, "ethereum").ok).toBe(true);
      } finally {
        await copy.stop();
      }
    });
  },
);
