/**
 * Base's proof system on the devnet, at Base's addresses. On the base chain: the L2ToL1MessagePasser
 * predeploy, whose storage root every output root commits to. On the ethereum chain: SystemConfig
 * (the guardian), the DisputeGameFactory and AnchorStateRegistry (each at its proxy's address, with
 * Base's storage layout), the two proof verifiers and the AggregateVerifier implementation
 * registered for game type 621, the anchor being the Base devnet's genesis output root. As for
 * Multicall3 (../multicall3.ts), each creation code runs once with eth_call and the runtime it
 * answers is put in place with anvil_setCode; state comes from ordinary transactions
 * (initialize, setImplementation, setInitBond), which emit the events Base's did.
 */
import { BASE_PROOF_SYSTEM, L2_TO_L1_MESSAGE_PASSER } from "@kusd/core";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  getAddress,
  type Hex,
  hexToBigInt,
  http,
  keccak256,
  type PublicClient,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anchorStateRegistryAbi } from "../../abis/index.js";
import { loadArtifact } from "../artifacts.js";
import { devnetChain } from "../chains.js";
import type { ContractRecord } from "../deployment.js";
import { rpcCall } from "../rpc.js";
import { OutputRoots } from "./output-roots.js";
import { DEVNET_PROOF_PARAMS, PROGRAM_HASHES, PROOF_KEYS } from "./params.js";

async function runtimeOf(rpcUrl: string, artifact: string, args: readonly unknown[] = []): Promise<Hex> {
  const { abi, bytecode } = loadArtifact(artifact);
  const data = encodeDeployData({ abi: abi as Abi, bytecode, args } as Parameters<typeof encodeDeployData>[0]);
  const runtime = await rpcCall<Hex>(rpcUrl, "eth_call", [{ data, gas: "0x1c9c380" }, "latest"]);
  if (!runtime || runtime === "0x") throw new Error(`${artifact}'s creation code returned no runtime code`);
  return runtime;
}

/** An EIP-1967 slot: keccak256 of its name, minus one. */
const eip1967Slot = (name: string): Hex => toHex(hexToBigInt(keccak256(toHex(name))) - 1n, { size: 32 });

/**
 * Base's genesis puts each predeploy behind a proxy administered by the ProxyAdmin predeploy
 * (0x4200…0018), its implementation at the "code namespace" address 0xc0D3…0000 + the predeploy's
 * last two bytes (base/contracts scripts/L2Genesis.s.sol, src/libraries/Predeploys.sol).
 */
const PROXY_ADMIN_PREDEPLOY: Address = "0x4200000000000000000000000000000000000018";
const CODE_NAMESPACE = 0xc0d3c0d3c0d3c0d3c0d3c0d3c0d3c0d3c0d30000n;

/**
 * The message passer where Base has it, before the chain's first block. Its code is the
 * implementation's; its storage starts with the two proxy slots Base's genesis sets, so its storage
 * root is never the empty trie's, and every withdrawal adds a slot.
 */
export async function installMessagePasser(rpcUrl: string): Promise<void> {
  await rpcCall(rpcUrl, "anvil_setCode", [L2_TO_L1_MESSAGE_PASSER, await runtimeOf(rpcUrl, "L2ToL1MessagePasser")]);
  const implementation = (hexToBigInt(L2_TO_L1_MESSAGE_PASSER) & 0xffffn) | CODE_NAMESPACE;
  await rpcCall(rpcUrl, "anvil_setStorageAt", [
    L2_TO_L1_MESSAGE_PASSER,
    eip1967Slot("eip1967.proxy.admin"),
    toHex(hexToBigInt(PROXY_ADMIN_PREDEPLOY), { size: 32 }),
  ]);
  await rpcCall(rpcUrl, "anvil_setStorageAt", [
    L2_TO_L1_MESSAGE_PASSER,
    eip1967Slot("eip1967.proxy.implementation"),
    toHex(implementation, { size: 32 }),
  ]);
}

/** Installs the L1 side on the ethereum devnet; answers what the deployment file records of it. */
export async function installProofSystem(urls: {
  ethereum: string;
  base: string;
}): Promise<Record<string, ContractRecord>> {
  const chain = devnetChain(1, urls.ethereum);
  const l1 = createPublicClient({ chain, transport: http(urls.ethereum) }) as PublicClient;
  const wallet = (key: Hex) =>
    createWalletClient({ account: privateKeyToAccount(key), chain, transport: http(urls.ethereum) });
  await rpcCall(urls.ethereum, "anvil_setBalance", [PROOF_KEYS.owner.address, toHex(10n ** 20n)]);
  for (const k of [PROOF_KEYS.proposer, PROOF_KEYS.challenger, PROOF_KEYS.guardian])
    await rpcCall(urls.ethereum, "anvil_setBalance", [k.address, toHex(10n ** 22n)]);
  const owner = wallet(PROOF_KEYS.owner.privateKey);
  const send = async (address: Address, abiName: string, functionName: string, args: readonly unknown[]) => {
    const hash = await owner.writeContract({
      address,
      abi: loadArtifact(abiName).abi,
      functionName,
      args,
    } as Parameters<typeof owner.writeContract>[0]);
    const receipt = await l1.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== "success") throw new Error(`${abiName}.${functionName} reverted`);
    return receipt.blockNumber;
  };
  const setCode = async (address: Address, artifact: string, args: readonly unknown[] = []) =>
    rpcCall(urls.ethereum, "anvil_setCode", [address, await runtimeOf(urls.ethereum, artifact, args)]);

  const p = BASE_PROOF_SYSTEM;
  await setCode(p.systemConfig, "SystemConfig", [PROOF_KEYS.guardian.address]);
  await setCode(p.disputeGameFactory, "DisputeGameFactory");
  await setCode(p.anchorStateRegistry, "AnchorStateRegistry", [DEVNET_PROOF_PARAMS.disputeGameFinalityDelaySeconds]);
  await setCode(p.teeVerifier, "SignatureProofVerifier", [PROOF_KEYS.teeSigner.address, PROGRAM_HASHES.teeImageHash]);
  await setCode(p.zkVerifier, "SignatureProofVerifier", [PROOF_KEYS.zkSigner.address, PROGRAM_HASHES.zkAggregateHash]);
  const factoryBlock = await send(p.disputeGameFactory, "DisputeGameFactory", "initialize", [PROOF_KEYS.owner.address]);
  // The first games build on the Base devnet's genesis block.
  const base = createPublicClient({ transport: http(urls.base) }) as PublicClient;
  const [genesis] = await new OutputRoots(base).at([0n]);
  const registryBlock = await send(p.anchorStateRegistry, "AnchorStateRegistry", "initialize", [
    p.systemConfig,
    p.disputeGameFactory,
    { root: genesis!.outputRoot, l2SequenceNumber: 0n },
    DEVNET_PROOF_PARAMS.gameType,
  ]);
  // Its constructor reads the factory from the registry, as Base's does: after the registry's initialize.
  await setCode(p.aggregateVerifier, "AggregateVerifier", [
    {
      gameType: DEVNET_PROOF_PARAMS.gameType,
      anchorStateRegistry: p.anchorStateRegistry,
      teeVerifier: p.teeVerifier,
      zkVerifier: p.zkVerifier,
      ...PROGRAM_HASHES,
      l2ChainId: 8453n,
      blockInterval: BigInt(DEVNET_PROOF_PARAMS.blockInterval),
      intermediateBlockInterval: BigInt(DEVNET_PROOF_PARAMS.intermediateBlockInterval),
      slowFinalizationDelay: BigInt(DEVNET_PROOF_PARAMS.slowFinalizationDelaySeconds),
      fastFinalizationDelay: BigInt(DEVNET_PROOF_PARAMS.fastFinalizationDelaySeconds),
    },
  ]);
  // As Base's activation did: the implementation with empty game arguments, then the bond.
  const implementationBlock = await send(p.disputeGameFactory, "DisputeGameFactory", "setImplementation", [
    DEVNET_PROOF_PARAMS.gameType,
    p.aggregateVerifier,
    "0x",
  ]);
  await send(p.disputeGameFactory, "DisputeGameFactory", "setInitBond", [
    DEVNET_PROOF_PARAMS.gameType,
    DEVNET_PROOF_PARAMS.initBond,
  ]);

  // The registry retires every game created at or before its initialization's timestamp, and anvil
  // gives blocks mined within one second the same timestamp: the first game comes a second later.
  const retired = await l1.readContract({
    address: p.anchorStateRegistry,
    abi: anchorStateRegistryAbi,
    functionName: "retirementTimestamp",
  });
  if ((await l1.getBlock()).timestamp <= retired)
    await rpcCall(urls.ethereum, "evm_setNextBlockTimestamp", [Number(retired) + 1]);

  const record = async (address: Address, artifact: string, block: bigint): Promise<ContractRecord> => ({
    address: getAddress(address),
    block: Number(block),
    timestamp: Number((await l1.getBlock({ blockNumber: block })).timestamp),
    artifact,
  });
  return {
    systemConfig: await record(p.systemConfig, "SystemConfig", factoryBlock),
    disputeGameFactory: await record(p.disputeGameFactory, "DisputeGameFactory", factoryBlock),
    anchorStateRegistry: await record(p.anchorStateRegistry, "AnchorStateRegistry", registryBlock),
    teeVerifier: await record(p.teeVerifier, "SignatureProofVerifier", factoryBlock),
    zkVerifier: await record(p.zkVerifier, "SignatureProofVerifier", factoryBlock),
    aggregateVerifier: await record(p.aggregateVerifier, "AggregateVerifier", implementationBlock),
  };
}
