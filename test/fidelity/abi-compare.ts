/**
 * Compares the ABI surface of each pair: every function (with its outputs and whether it reads or
 * writes), event (with its indexed layout, which decides the topics an indexer sees), error and
 * constructor that either side declares.
 */
import type { Abi, AbiParameter } from "viem";

function canonicalType(p: AbiParameter): string {
  if (p.type.startsWith("tuple")) {
    const components = (p as { components: readonly AbiParameter[] }).components;
    return `(${components.map(canonicalType).join(",")})${p.type.slice("tuple".length)}`;
  }
  return p.type;
}

const list = (ps: readonly AbiParameter[]) => ps.map(canonicalType).join(",");

/** key -> what must be equal, for every declared item. */
export function abiSurface(abi: Abi): Map<string, string> {
  const out = new Map<string, string>();
  for (const item of abi) {
    switch (item.type) {
      case "function": {
        // Mutability exactly as declared: an ABI reader sees view and pure as different things.
        out.set(
          `function ${item.name}(${list(item.inputs)})`,
          `returns (${list(item.outputs)}) ${item.stateMutability}`,
        );
        break;
      }
      case "event":
        out.set(
          `event ${item.name}(${list(item.inputs)})`,
          `(${item.inputs.map((i) => `${canonicalType(i)}${i.indexed ? " indexed" : ""}`).join(",")})${item.anonymous ? " anonymous" : ""}`,
        );
        break;
      case "error":
        out.set(`error ${item.name}(${list(item.inputs)})`, "declared");
        break;
      case "constructor":
        out.set("constructor", `(${list(item.inputs)})${item.stateMutability === "payable" ? " payable" : ""}`);
        break;
      default:
        out.set(item.type, "declared");
    }
  }
  return out;
}

export type AbiDifference = { item: string; a: string; b: string };

/** Every item of either surface, with both sides' descriptions ("absent" where missing). */
export function compareAbiSurfaces(reference: Abi, devnet: Abi): AbiDifference[] {
  const a = abiSurface(reference);
  const b = abiSurface(devnet);
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort();
  return keys.map((k) => ({ item: k, a: a.get(k) ?? "absent", b: b.get(k) ?? "absent" }));
}
