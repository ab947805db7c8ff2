/**
 * A chapter of the scripted history (devnet/history/chapters.ts lists them in order) schedules
 * its jobs at their dates on the history being written: BaseHistory (devnet/history.ts), seen
 * here through the part of it chapters use. Jobs run in date order, whichever chapter scheduled
 * them; jobs at the same instant run in the order they were scheduled.
 */
import type { Address } from "viem";
import type { ContractRecord, RoleGrantRecord } from "../deployment.js";
import type { ChainDriver, Receipt, Tx } from "../driver.js";
import type { DevnetKey, KeyName } from "../keys.js";
import type { PSM_ARTIFACTS } from "./constants.js";

export interface HistoryWriter {
  readonly keys: Record<KeyName, DevnetKey>;
  readonly d: ChainDriver;
  readonly contracts: Record<string, ContractRecord>;
  readonly roles: RoleGrantRecord[];
  /** Users the activity plan has (known once the history runs, before any job). */
  readonly userCount: number;
  /** Runs `run` when the chain reaches `at` (unix seconds). */
  schedule(at: number, name: string, run: () => Promise<void>): void;
  addr(name: string): Address;
  tx(from: DevnetKey | Address, contract: string, fn: string, args?: readonly unknown[], value?: bigint): Tx;
  read<T>(contract: string, fn: string, args?: readonly unknown[]): Promise<T>;
  readMany(contract: string, fn: string, argLists: readonly unknown[][]): Promise<bigint[]>;
  balances(contract: string, holders: Address[]): Promise<bigint[]>;
  deploy(name: string, artifact: string, from: DevnetKey, args: readonly unknown[]): Promise<Address>;
  send(
    from: DevnetKey | Address,
    contract: string,
    fn: string,
    args?: readonly unknown[],
    value?: bigint,
  ): Promise<Receipt>;
  /** A call executed by the 2-of-3 multisig. */
  safe(contract: string, fn: string, args?: readonly unknown[]): Promise<Receipt>;
  /** An admin call the Safe proposes to the timelock at `at` and executes once the delay has passed. */
  timelocked(
    at: number,
    name: string,
    contract: string,
    fn: string,
    args: () => Promise<readonly unknown[]> | readonly unknown[],
    landmark?: string,
  ): void;
  landmark(name: string, receipt: Receipt): void;
  grantMinter(via: "deployer" | "safe", holder: string): Promise<void>;
  revokeMinter(holder: string): Promise<void>;
  deployPsm(name: keyof typeof PSM_ARTIFACTS, treasury: string | null): Promise<void>;
  mintFor(who: DevnetKey, amountUsdc: bigint, psm?: string): Promise<Receipt>;
  pushEthPrice(): Promise<void>;
}

export type Chapter = (h: HistoryWriter) => void;
