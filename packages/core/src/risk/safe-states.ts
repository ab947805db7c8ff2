/**
 * The safe state of the configuration getters that are safety switches, by name and, where the
 * operator's rule is about one contract, for that contract only (the catalog itself comes from
 * the ABIs). A getter without an entry is published with `safe: null`: a
 * policy value, not a switch with a right position.
 */
export type SafeRule = {
  safeWhen: string;
  safe: (value: boolean | bigint) => boolean;
  why: string;
  /** The contracts (keys) the rule is about; absent: every contract with the getter. */
  appliesTo?: readonly string[];
};

/** The operator's stated minimum for the timelock that holds the admin role of kUSD and the PSMs. */
export const MIN_TIMELOCK_DELAY_SECONDS = 172_800n;

export const SAFE_STATES: Record<string, SafeRule> = {
  paused: {
    safeWhen: "false",
    safe: (v) => v === false,
    why: "a paused PSM neither mints nor redeems; a paused vault blocks withdrawals",
  },
  solvencyCheckDisabled: {
    safeWhen: "false",
    safe: (v) => v === false,
    why: "while true the PSM skips _checkSolvency on both the mint and the redeem path",
  },
  depegCheckDisabled: {
    safeWhen: "false",
    safe: (v) => v === false,
    why: "while true the PSM swaps at par whatever the stable's oracle price",
  },
  whitelistEnabled: {
    safeWhen: "true",
    safe: (v) => v === true,
    why: "the operator's rule: no public deposits into vault v2's pre-audit bytecode (maxDeposit is 0 for anyone not whitelisted)",
    appliesTo: ["vaultV2"],
  },
  getMinDelay: {
    safeWhen: `≥ ${MIN_TIMELOCK_DELAY_SECONDS}`,
    safe: (v) => typeof v === "bigint" && v >= MIN_TIMELOCK_DELAY_SECONDS,
    why: "the operator's stated 48-hour delay on administrative changes to kUSD and the PSMs",
  },
};

export const safeRuleFor = (contractKey: string, getter: string): SafeRule | undefined => {
  const rule = SAFE_STATES[getter];
  return rule && (!rule.appliesTo || rule.appliesTo.includes(contractKey)) ? rule : undefined;
};
