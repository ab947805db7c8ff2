/**
 * One block's state as eth_getProof (EIP-1186) proves it against the block's state root: each
 * account (nonce, balance, storage root, code hash), each storage slot, and each contract's code,
 * whose keccak-256 must be the proven code hash. Nothing is read before it is asked for: what the
 * reads ask for in one turn of the event loop (several EVMs running at once, or a prefetch hint)
 * travels as one eth_getProof per account with every slot asked of it. What does not prove is
 * never given a value, zero included: asking for it throws ProofError naming the account, the slot
 * and why.
 */
import { type Address, getAddress, type Hex, keccak256, numberToHex, type PublicClient, pad } from "viem";
import { EMPTY_CODE_HASH, ProofError, type ProvenAccount, proveAccount, proveSlot } from "./merkle-proof.js";

type EthProof = { accountProof: Hex[]; storageProof: { key: Hex; proof: Hex[] }[] };

type Deferred<T> = { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void };

function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A prefetch nobody awaits must not end the process; whoever asks still meets the error.
  promise.catch(() => {});
  return { promise, resolve, reject };
}

type Pending = { address: Address; account: Deferred<ProvenAccount> | null; slots: Map<Hex, Deferred<bigint>> };

/** What was fetched and proved: accounts, slots, contracts' code, and the eth_getProof calls made. */
export type ProvenStateCounts = { accounts: number; slots: number; code: number; proofCalls: number };

export class ProvenState {
  private readonly accounts = new Map<string, Promise<ProvenAccount>>();
  private readonly slots = new Map<string, Promise<bigint>>();
  private readonly codes = new Map<string, Promise<Hex>>();
  private pending = new Map<string, Pending>();
  private flushing: ReturnType<typeof setTimeout> | null = null;
  readonly counts: ProvenStateCounts = { accounts: 0, slots: 0, code: 0, proofCalls: 0 };

  constructor(
    private readonly client: Pick<PublicClient, "request">,
    readonly stateRoot: Hex,
    readonly blockNumber: bigint,
  ) {}

  /** The account at `address`, proven (an absent account proves `exists: false`). */
  account(address: Address): Promise<ProvenAccount> {
    const key = address.toLowerCase();
    const known = this.accounts.get(key);
    if (known) return known;
    const d = deferred<ProvenAccount>();
    this.accounts.set(key, d.promise);
    this.entry(address).account = d;
    return d.promise;
  }

  /** The value of storage `slot` of `address`, proven against the account's proven storage root. */
  slot(address: Address, slot: Hex): Promise<bigint> {
    const word = pad(slot, { size: 32 }).toLowerCase() as Hex;
    const key = `${address.toLowerCase()}|${word}`;
    const known = this.slots.get(key);
    if (known) return known;
    // The slot rests on its account's proof: asked together, they come in one eth_getProof.
    void this.account(address);
    const d = deferred<bigint>();
    this.slots.set(key, d.promise);
    this.entry(address).slots.set(word, d);
    return d.promise;
  }

  /** The contract's code, which must hash to its proven code hash ("0x" for an account with none). */
  code(address: Address): Promise<Hex> {
    const key = address.toLowerCase();
    const known = this.codes.get(key);
    if (known) return known;
    address = getAddress(address);
    const read = this.account(address).then(async (account) => {
      if (account.codeHash.toLowerCase() === EMPTY_CODE_HASH) return "0x" as Hex;
      let code: Hex;
      try {
        code = (await this.client.request({
          method: "eth_getCode",
          params: [address, numberToHex(this.blockNumber)],
        } as never)) as Hex;
      } catch (e) {
        throw new ProofError(`eth_getCode of ${address} failed: ${firstLine(e)}`, address, null);
      }
      const hash = typeof code === "string" && /^0x[0-9a-fA-F]*$/.test(code) ? keccak256(code) : null;
      if (hash?.toLowerCase() !== account.codeHash.toLowerCase())
        throw new ProofError(
          `the code the RPC gave for ${address} hashes to ${hash ?? "nothing (not hex)"}, the proven code hash is ${account.codeHash}`,
          address,
          null,
        );
      this.counts.code++;
      return code;
    });
    read.catch(() => {});
    this.codes.set(key, read);
    return read;
  }

  /** Asks for accounts and slots ahead of execution (an access list's hint); what they prove is what counts. */
  prefetch(entries: readonly { address: Address; storageKeys: readonly Hex[] }[]): void {
    for (const e of entries) {
      void this.account(e.address);
      for (const k of e.storageKeys) void this.slot(e.address, k);
    }
  }

  private entry(address: Address): Pending {
    const key = address.toLowerCase();
    let e = this.pending.get(key);
    if (!e) {
      // Checksummed: the address errors name is the one a reader compares with their own.
      e = { address: getAddress(address), account: null, slots: new Map() };
      this.pending.set(key, e);
    }
    // A timer, not a microtask: every EVM waiting on state in this turn joins the same batch.
    this.flushing ??= setTimeout(() => this.flush(), 0);
    return e;
  }

  private flush(): void {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.flushing = null;
    for (const e of batch) void this.fetch(e);
  }

  private async fetch(e: Pending): Promise<void> {
    const keys = [...e.slots.keys()];
    const failAll = (why: string) => {
      e.account?.reject(new ProofError(why, e.address, null));
      for (const [slot, d] of e.slots) d.reject(new ProofError(why, e.address, slot));
    };
    let answer: EthProof;
    try {
      this.counts.proofCalls++;
      answer = (await this.client.request({
        method: "eth_getProof",
        params: [e.address, keys, numberToHex(this.blockNumber)],
      } as never)) as EthProof;
    } catch (err) {
      return failAll(`eth_getProof of ${e.address} failed: ${firstLine(err)}`);
    }
    if (!Array.isArray(answer?.accountProof) || !Array.isArray(answer.storageProof))
      return failAll(`the RPC's eth_getProof of ${e.address} is not a proof`);
    if (e.account) {
      try {
        e.account.resolve(await proveAccount(this.stateRoot, e.address, answer.accountProof));
        this.counts.accounts++;
      } catch (err) {
        e.account.reject(err);
      }
    }
    let account: ProvenAccount;
    try {
      account = await this.account(e.address);
    } catch (err) {
      // With its account refused, no slot of it is proven.
      for (const [slot, d] of e.slots) d.reject(new ProofError((err as Error).message, e.address, slot));
      return;
    }
    await Promise.all(
      [...e.slots].map(async ([slot, d]) => {
        const p = answer.storageProof.find((x) => typeof x?.key === "string" && BigInt(x.key) === BigInt(slot));
        if (!p || !Array.isArray(p.proof))
          return d.reject(new ProofError(`the RPC gave no proof of slot ${slot} of ${e.address}`, e.address, slot));
        try {
          d.resolve(await proveSlot(account.storageRoot, e.address, slot, p.proof));
          this.counts.slots++;
        } catch (err) {
          d.reject(err);
        }
      }),
    );
  }
}

const firstLine = (e: unknown) => ((e as Error)?.message ?? String(e)).split("\n")[0];
