import { describe, expect, it } from "vitest";
import { riskPins } from "./risk-pins.js";
import { buildRiskStatus, getterTrigger, roleTrigger } from "./risk-status.js";

const PSM = "0x00000000000000000000000000000000000000a1" as const;
const flag = (name: string) => ({
  name,
  signature: `${name}()(bool)`,
  arg: "none" as const,
  kind: "flag" as const,
  setBy: `set${name}`,
});

describe("risk-status triggers", () => {
  it("judges a switch by its safe state and leaves a policy value unjudged", () => {
    expect(
      getterTrigger({
        contractKey: "psmMint",
        contract: PSM,
        getter: flag("solvencyCheckDisabled"),
        value: true,
        verifyVia: null,
      }),
    ).toMatchObject({ id: "psmMint.solvencyCheckDisabled", value: true, safe: false, safeWhen: "false" });
    expect(
      getterTrigger({
        contractKey: "psmMint",
        contract: PSM,
        getter: flag("mintingEnabled"),
        value: false,
        verifyVia: null,
      }),
    ).toMatchObject({ safe: null, safeWhen: null });
    expect(
      getterTrigger({ contractKey: "psmMint", contract: PSM, getter: flag("paused"), value: null, verifyVia: null }),
    ).toMatchObject({ value: null, safe: null, safeWhen: "false" });
    // A rule about one contract judges that contract only.
    expect(
      getterTrigger({
        contractKey: "vaultV2",
        contract: PSM,
        getter: flag("whitelistEnabled"),
        value: false,
        verifyVia: null,
      }).safe,
    ).toBe(false);
    expect(
      getterTrigger({
        contractKey: "vaultV1",
        contract: PSM,
        getter: flag("whitelistEnabled"),
        value: false,
        verifyVia: null,
      }),
    ).toMatchObject({ safe: null, safeWhen: null });
    const delay = {
      name: "getMinDelay",
      signature: "getMinDelay()(uint256)",
      arg: "none" as const,
      kind: "threshold" as const,
      setBy: "updateDelay",
    };
    expect(
      getterTrigger({ contractKey: "timelock", contract: PSM, getter: delay, value: 86_400n, verifyVia: null }),
    ).toMatchObject({ value: "86400", safe: false });
  });

  it("a role is safe when every holder is allowed (case aside), unknown when the holders could not be read", () => {
    const base = {
      contractKey: "kUSD",
      contract: PSM,
      role: "MINTER_ROLE",
      allowed: [PSM],
      allowedLabel: "the live mint PSM",
      why: "",
      verifyVia: null,
    };
    expect(roleTrigger({ ...base, holders: [PSM.toUpperCase().replace("0X", "0x")] }).safe).toBe(true);
    expect(roleTrigger({ ...base, holders: [PSM, "0x00000000000000000000000000000000000000b2"] }).safe).toBe(false);
    expect(roleTrigger({ ...base, holders: null }).safe).toBeNull();
  });

  it("overall: attention when a trigger is out of its safe state, unknown when a deciding read failed, else ok", () => {
    const t = (paused: boolean | null) =>
      getterTrigger({ contractKey: "psmMint", contract: PSM, getter: flag("paused"), value: paused, verifyVia: null });
    const doc = (paused: boolean | null) =>
      buildRiskStatus({
        blockNumber: 1n,
        timestamp: 0,
        onChain: [t(paused)],
        offChain: [],
        gaps: [],
        gapSource: "",
        failedReads: [],
        pins: riskPins({
          base: { network: { chainId: 8453, documentSha256: `0x${"0".repeat(64)}` }, block: null },
          venueUrl: null,
          offChain: {
            atHead: true,
            venueAccount: PSM,
            venue: null,
            venueReason: "venue not configured",
            statementSignedAt: null,
            now: 0,
          },
          receivedAtMs: null,
        }),
      });
    expect(doc(true)).toMatchObject({ overall: "attention" });
    expect(doc(true).summary).toMatch(/Out of their safe state: psmMint\.paused/);
    expect(doc(null).overall).toBe("unknown");
    expect(doc(false).overall).toBe("ok");
  });
});
