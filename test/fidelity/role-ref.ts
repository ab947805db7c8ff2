/**
 * Arguments that name a contract by role, so one scenario line means "side A's PSM" on side A
 * and "side B's PSM" on side B. Actors are plain addresses: they are the same on both sides.
 */
import { type Address, maxUint256, zeroAddress } from "viem";
import { ROLE } from "./constants.js";
import { ACTORS, type Role, type Side } from "./deploy-pair.js";

export class RoleRef {
  constructor(readonly role: Role) {}
}

export const at = (role: Role): RoleRef => new RoleRef(role);

export type Arg = unknown;

/** The arguments with roles replaced by this side's addresses; null when a role is missing here. */
export function resolveArgs(args: readonly Arg[], side: Side): unknown[] | null {
  const out: unknown[] = [];
  for (const a of args) {
    if (a instanceof RoleRef) {
      const address = side.addr[a.role];
      if (!address) return null;
      out.push(address);
    } else if (Array.isArray(a)) {
      const inner = resolveArgs(a, side);
      if (!inner) return null;
      out.push(inner);
    } else {
      out.push(a);
    }
  }
  return out;
}

export function rolesIn(args: readonly Arg[]): Role[] {
  return args.flatMap((a) => (a instanceof RoleRef ? [a.role] : Array.isArray(a) ? rolesIn(a) : []));
}

const actorNames = new Map<string, string>([
  ...Object.entries(ACTORS).map(([n, a]): [string, string] => [a.toLowerCase(), n]),
  [zeroAddress, "0x0"],
]);
const roleNames = new Map(Object.entries(ROLE).map(([n, h]) => [h.toLowerCase(), `${n}_ROLE`]));

export function argLabel(a: Arg): string {
  if (a instanceof RoleRef) return a.role;
  if (typeof a === "string" && /^0x[0-9a-fA-F]{40}$/.test(a)) return actorNames.get(a.toLowerCase()) ?? a;
  if (typeof a === "string" && /^0x[0-9a-fA-F]{64}$/.test(a)) return roleNames.get(a.toLowerCase()) ?? a;
  if (a === maxUint256) return "MAX_UINT256";
  if (Array.isArray(a)) return `[${a.map(argLabel).join(",")}]`;
  if (a && typeof a === "object") return `{${Object.values(a).map(argLabel).join(",")}}`;
  return String(a);
}

export type Who = keyof typeof ACTORS | RoleRef;

export function whoAddress(who: Who, side: Side): Address | undefined {
  return who instanceof RoleRef ? side.addr[who.role] : ACTORS[who];
}
