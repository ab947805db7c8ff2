import { describe, expect, it } from "vitest";
import { DEFAULT_ADMIN_ROLE, MINTER_ROLE, ROLE_NAMES } from "./roles.js";

describe("roles", () => {
  it("MINTER_ROLE is keccak256('MINTER_ROLE') as deployed (DESIGN.md: 0x9f2df0fe...56a6), the admin role zero", () => {
    expect(MINTER_ROLE).toBe("0x9f2df0fed2c77648de5860a4cc508cd0818c85b8b8a1ab4ceeef8d981c8956a6");
    expect(DEFAULT_ADMIN_ROLE).toBe(`0x${"0".repeat(64)}`);
    expect(ROLE_NAMES.get(MINTER_ROLE)).toBe("MINTER_ROLE");
  });
});
