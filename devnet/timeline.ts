/**
 * The dates of the scripted history. Everything the devnet does at a date is named here, so
 * the chain history and the venue simulator tell one story.
 */
export const iso = (s: string): number => Math.floor(Date.parse(s) / 1000);

export const HISTORY_START = iso("2026-05-14T00:00:00Z");

export const DATES = {
  genesis: HISTORY_START,
  registryV1: iso("2026-05-14T06:00:00Z"),
  hedgeMarginDeposit: iso("2026-05-14T12:00:00Z"),
  vaultQueueRequest: iso("2026-06-01T09:00:00Z"),
  vaultSweep: iso("2026-06-02T09:00:00Z"),
  vaultQueueClaim: iso("2026-06-09T09:00:00Z"),
  ceremony: iso("2026-06-16T12:00:00Z"),
  skusdRedeploy: iso("2026-07-03T12:00:00Z"),
  mintPsmRedeploy: iso("2026-07-10T12:00:00Z"),
  founderRedeemLegacy: iso("2026-07-20T15:00:00Z"),
  mintingOffDrill: iso("2026-07-24T14:00:00Z"),
  vaultV2Whitelist: iso("2026-07-30T10:00:00Z"),
  founderRedeemRetired: iso("2026-08-02T15:00:00Z"),
  /** The timelock and the pause guardian are deployed, and the timelock is made admin beside the Safe. */
  timelockAdminGranted: iso("2026-08-03T23:24:07Z"),
  /** The 13-call custody handover (Base block 49,623,130): the Safe leaves kUSD's and the PSMs' admin. */
  timelockHandover: iso("2026-08-06T17:00:07Z"),
  vaultV2MinterRevoked: iso("2026-08-03T10:00:00Z"),
  venueDisclosure: iso("2026-08-10T09:00:00Z"),
  attestationKeyFrom: iso("2026-08-13T00:00:00Z"),
  venueDeposit: iso("2026-08-14T11:00:00Z"),
  lendingMarket: iso("2026-08-20T12:00:00Z"),
  feeSkim: iso("2026-09-01T10:00:00Z"),
  safeFunding: iso("2026-09-04T10:00:00Z"),
  psmTopUp: iso("2026-09-05T10:00:00Z"),
  founderRedeemMint: iso("2026-09-10T15:00:00Z"),
  violation: iso("2026-09-20T13:00:00Z"),
  pauseDrill: iso("2026-09-25T09:00:00Z"),
  externalRedeem: iso("2026-10-05T16:00:00Z"),
  flashLoan: iso("2026-10-12T08:00:00Z"),
  feeLadderWalk: iso("2026-10-15T14:00:00Z"),
  insuranceTopUp: iso("2026-10-20T10:00:00Z"),
} as const;

/** The last scripted story date; the periodic activity then runs up to the present. */
export const LAST_STORY_DATE = Math.max(...Object.values(DATES));

export const DAY = 86_400;
export const HOUR = 3_600;
