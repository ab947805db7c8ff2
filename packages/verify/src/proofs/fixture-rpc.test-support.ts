/**
 * A node for the unit tests that answers from a captured fixture (fixtures/execution-*.json):
 * the header, eth_getProof of any captured slots of a captured account, the captured code, and an
 * access list the test chooses; every request is kept. `change` lets a test make one answer lie.
 */
import type { Hex, PublicClient } from "viem";
import type { RpcHeader } from "./header.js";
import type { RecordedRead } from "./recorded-reads.js";

export type ExecutionFixture = {
  note: string;
  header: RpcHeader;
  reads: { kind: "call"; spec: { to: Hex; signature: string; args: string[] }; outcome: { ok: true; value: string } }[];
  accounts: Record<string, { accountProof: Hex[]; storageProof: Record<string, Hex[]> }>;
  code: Record<string, Hex>;
};

export type Asked = { method: string; params: unknown[] };

/** The fixture's reads as recorded: the uint answers as bigints. */
export const readsOf = (f: ExecutionFixture): RecordedRead[] =>
  f.reads.map((r) => ({ ...r, outcome: { ok: true, value: BigInt(r.outcome.value) } }));

export function fixtureRpc(
  f: ExecutionFixture,
  o: {
    accessList?: { address: Hex; storageKeys: Hex[] }[];
    change?: (method: string, params: unknown[], answer: unknown) => unknown;
  } = {},
) {
  const asked: Asked[] = [];
  const answer = (method: string, params: unknown[]): unknown => {
    if (method === "eth_getBlockByHash") return f.header;
    if (method === "eth_createAccessList") return { accessList: o.accessList ?? [], gasUsed: "0x0" };
    if (method === "eth_getCode") return f.code[(params[0] as string).toLowerCase()] ?? "0x";
    if (method === "eth_getProof") {
      const [address, keys] = params as [string, Hex[]];
      const a = f.accounts[address.toLowerCase()];
      if (!a) throw new Error(`${address} was not captured`);
      const proofOf = (k: Hex) => Object.entries(a.storageProof).find(([key]) => BigInt(key) === BigInt(k))?.[1];
      return {
        accountProof: a.accountProof,
        storageProof: keys.flatMap((key) => {
          const proof = proofOf(key);
          return proof ? [{ key, proof }] : [];
        }),
      };
    }
    throw new Error(`unexpected ${method}`);
  };
  const client = {
    request: async ({ method, params }: { method: string; params: unknown[] }) => {
      asked.push({ method, params });
      const a = answer(method, params);
      return o.change ? o.change(method, params, a) : a;
    },
  } as unknown as Pick<PublicClient, "request">;
  return { client, asked };
}

/** A proof node with its last byte changed: it no longer hashes to its parent's reference. */
export const tampered = (nodes: readonly Hex[]): Hex[] => {
  const leaf = nodes.at(-1)!;
  return [...nodes.slice(0, -1), `${leaf.slice(0, -2)}${leaf.slice(-2) === "00" ? "01" : "00"}` as Hex];
};
