/**
 * Which getters of a deployed contract are its configuration: derived from the contract's ABI,
 * not listed by hand. A getter counts when it returns one bool or integer, takes nothing or one
 * address, and is either set by the contract itself (a `setY` where Y is the getter's name,
 * or the name less a plural or a unit: `setStableCap` sets `stableCaps`, `setFlashFee` sets
 * `flashFeeBps`; `pause`/`unpause` set `paused`; `updateDelay` sets `getMinDelay`) or a constant
 * threshold (UPPER_CASE, roles excepted). An address-keyed getter counts only when its setter's first parameter is named
 * `stable`: it is then read for USDC; one keyed by account (`whitelisted`) is not configuration.
 */
import type { Abi, AbiFunction } from "viem";

export type ConfigGetter = {
  name: string;
  /** cast-style: `stableCaps(address)(uint256)` */
  signature: string;
  /** `stable`: called with USDC's address. */
  arg: "none" | "stable";
  kind: "flag" | "threshold" | "constant";
  /** The function that changes it (null for a constant). */
  setBy: string | null;
};

const SUFFIXES = ["", "s", "Bps", "Seconds"];
const ALIASES: Record<string, string[]> = { paused: ["pause", "unpause"], getMinDelay: ["updateDelay"] };

function setterOf(name: string, writable: AbiFunction[]): AbiFunction | null {
  const aliased = writable.find((f) => ALIASES[name]?.includes(f.name));
  if (aliased) return aliased;
  const lower = name.toLowerCase();
  // What may follow Y: a plural or a unit (`insuranceFundBalance` is not what `setInsuranceFund` sets).
  const matches = writable.filter(
    (f) => /^set[A-Z]/.test(f.name) && SUFFIXES.some((x) => lower === `${f.name.slice(3)}${x}`.toLowerCase()),
  );
  return matches[0] ?? null;
}

export function configurationGetters(abi: Abi): ConfigGetter[] {
  const fns = abi.filter((x): x is AbiFunction => x.type === "function");
  const writable = fns.filter((f) => f.stateMutability === "nonpayable" || f.stateMutability === "payable");
  const out: ConfigGetter[] = [];
  for (const f of fns) {
    if (f.stateMutability !== "view" && f.stateMutability !== "pure") continue;
    if (f.outputs.length !== 1 || !/^(bool|u?int\d*)$/.test(f.outputs[0]!.type)) continue;
    const arg =
      f.inputs.length === 0 ? "none" : f.inputs.length === 1 && f.inputs[0]!.type === "address" ? "stable" : null;
    if (arg === null) continue;
    const constant = /^[A-Z][A-Z0-9_]*$/.test(f.name) && !f.name.endsWith("_ROLE") && arg === "none";
    const setter = constant ? null : setterOf(f.name, writable);
    if (!constant && setter === null) continue;
    if (arg === "stable" && setter?.inputs[0]?.name !== "stable") continue;
    const setBy = setter?.name ?? null;
    const output = f.outputs[0]!.type;
    out.push({
      name: f.name,
      signature: `${f.name}(${f.inputs.map((i) => i.type).join(",")})(${output})`,
      arg,
      kind: constant ? "constant" : output === "bool" ? "flag" : "threshold",
      setBy,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}
