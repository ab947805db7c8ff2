/**
 * The EVM's state manager over ProvenState: what a call writes (a nonce, a balance made up for a
 * value transfer, storage) stays in @ethereumjs/statemanager's journaled overlay and is thrown away
 * with the call; everything the call reads and did not write comes from ProvenState, proven at
 * first access or refused. Which accounts and slots one call touched is kept, so a read can say
 * what it rests on.
 */
import type { Common } from "@ethereumjs/common";
import { SimpleStateManager } from "@ethereumjs/statemanager";
import { type Account, type Address, bigIntToUnpaddedBytes, bytesToHex, createAccount } from "@ethereumjs/util";
import { type Hex, hexToBytes } from "viem";
import { ProofError } from "./merkle-proof.js";
import type { ProvenState } from "./proven-state.js";

export class ProvenStateManager extends SimpleStateManager {
  /** The accounts and slots this call read from the proven state. */
  readonly touched = { accounts: new Set<string>(), slots: new Set<string>() };

  constructor(
    private readonly state: ProvenState,
    common: Common,
  ) {
    super({ common });
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const key = address.toString();
    const written = this.topAccountStack();
    if (written.has(key)) return written.get(key);
    this.touched.accounts.add(key);
    const a = await this.state.account(key as Hex);
    if (!a.exists) return undefined;
    return createAccount({
      nonce: a.nonce,
      balance: a.balance,
      storageRoot: hexToBytes(a.storageRoot),
      codeHash: hexToBytes(a.codeHash),
    });
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const key = address.toString();
    const written = this.topCodeStack();
    if (written.has(key)) return written.get(key)!;
    this.touched.accounts.add(key);
    return hexToBytes(await this.state.code(key as Hex));
  }

  override async getStorage(address: Address, slot: Uint8Array): Promise<Uint8Array> {
    const key = `${address.toString()}_${bytesToHex(slot)}`;
    const written = this.topStorageStack();
    if (written.has(key)) return written.get(key)!;
    this.touched.slots.add(key);
    return bigIntToUnpaddedBytes(await this.state.slot(address.toString() as Hex, bytesToHex(slot)));
  }

  /**
   * Only a contract's creation or destruction clears storage, which no read does; the overlay
   * could not tell a cleared slot from an unread one, so the call is refused rather than read
   * through to the proven state.
   */
  override async clearStorage(address: Address): Promise<void> {
    throw new ProofError(
      `the call clears the storage of ${address.toString()}: a read that creates or destroys a contract is not executed here`,
      address.toString() as Hex,
      null,
    );
  }

  override shallowCopy(): ProvenStateManager {
    return new ProvenStateManager(this.state, this.common!);
  }
}
