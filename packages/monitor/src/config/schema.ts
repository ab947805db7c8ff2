/**
 * The monitor's configuration file, as one zod schema: the type the monitor runs on and the
 * messages `--check` prints come from here. The command-line flags build the same object
 * (flags.ts), so both routes are validated alike. Secrets are never written in the file: any
 * string may be `${NAME}` (whole or in part), read from the environment when the file is loaded.
 */
import { z } from "zod";

const url = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
const seconds = z.number().int("must be a whole number of seconds").nonnegative();
const ms = z.number().int("must be a whole number of milliseconds").nonnegative();
const kinds = z
  .array(
    z.enum([
      "violation",
      "minter_grant",
      "minter_role_change",
      "psm_pause",
      "redemption",
      "backing_ratio",
      "statement_stale",
      "venue_unreadable",
      "trigger",
      "gap",
    ]),
  )
  .min(1, "lists at least one kind (leave it out for all)")
  .optional()
  .describe("the alert kinds this destination takes; default all");

/** Fields every destination has. `id` names its outbox file and metrics; default its type (then type-2, ...). */
const common = {
  id: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, "letters, digits, . _ - (at most 64)")
    .optional(),
  kinds,
};

/**
 * Destinations. Each type's own fields are checked here; a type's factory (sink-registry.ts)
 * may read further fields it documents (loose objects keep them).
 */
export const SinkConfigSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("stdout"), ...common }),
  z.looseObject({ type: z.literal("webhook"), ...common, url, secret: z.string().min(1, "is required (signing key)") }),
  z.looseObject({ type: z.literal("slack"), ...common, url }),
  z.looseObject({ type: z.literal("discord"), ...common, url }),
  z.looseObject({
    type: z.literal("telegram"),
    ...common,
    apiBase: url.optional(),
    token: z.string().min(1, "is required (the bot token)"),
    chatId: z.union([z.string().min(1), z.number().int()]),
  }),
  z.looseObject({ type: z.literal("pagerduty"), ...common, url: url.optional(), routingKey: z.string().min(1) }),
  z.looseObject({
    type: z.literal("email"),
    ...common,
    host: z.string().min(1),
    port: z.number().int().min(1).max(65_535).optional(),
    secure: z.boolean().optional(),
    auth: z.strictObject({ user: z.string().min(1), pass: z.string().min(1) }).optional(),
    from: z.string().min(3),
    to: z.union([z.string().min(3), z.array(z.string().min(3)).min(1)]),
  }),
  z.looseObject({
    type: z.literal("command"),
    ...common,
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    timeoutMs: ms.min(1).optional(),
  }),
]);
export type SinkConfig = z.infer<typeof SinkConfigSchema>;

export const MonitorConfigSchema = z
  .strictObject({
    api: url.describe("the site serving /api"),
    /** What to watch. Registry violations are always watched (they are the monitor's reason to be). */
    alerts: z
      .strictObject({
        minterGrants: z.boolean().default(false),
        minterRoleChanges: z.boolean().default(false),
        psmPauses: z.boolean().default(false),
        redemptions: z
          .strictObject({ minKusd: z.string().regex(/^\d{1,15}(\.\d{1,18})?$/, "is a kUSD amount such as 1000") })
          .optional(),
        backingRatio: z
          .strictObject({ below: z.string().regex(/^\d{1,3}(\.\d{1,8})?$/, "is a ratio such as 1 or 0.995") })
          .optional(),
        statementMaxAgeSeconds: seconds.optional(),
        venueUnreadableAfterSeconds: seconds.optional(),
        riskTriggers: z.boolean().default(false),
      })
      .default({ minterGrants: false, minterRoleChanges: false, psmPauses: false, riskTriggers: false }),
    confirmations: z.number().int().nonnegative().default(0),
    reorgWindow: z.number().int().nonnegative().default(64),
    pollMs: ms.default(1_000),
    /**
     * The progress file (its outbox is the directory beside it, `<state>.outbox/`), or a
     * `postgres://` URL: state and outbox in PostgreSQL, shared by every monitor of `group`.
     */
    state: z.string().min(1).optional(),
    /** With a PostgreSQL state: monitors of the same group share one cursor and one outbox. */
    group: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,64}$/, "letters, digits, . _ : - (at most 64)")
      .default("default"),
    /** This monitor's name in the shared state and its metrics; default host:pid. */
    instance: z.string().min(1).max(64).optional(),
    /** A directory for `state.json` and `outbox/` (default: under the user's state home, state-location.ts). */
    stateDir: z.string().min(1).optional(),
    fromBlock: z.union([z.literal("head"), z.number().int().nonnegative()]).default("head"),
    retry: z
      .strictObject({ baseDelayMs: ms.min(1).default(500), maxDelayMs: ms.min(1).default(300_000) })
      .default({ baseDelayMs: 500, maxDelayMs: 300_000 }),
    /** Per-kind overrides of the messages' title and lines: `{{field}}` takes the message's fields. */
    templates: z
      .record(z.string(), z.strictObject({ title: z.string().optional(), lines: z.array(z.string()).optional() }))
      .optional(),
    metricsPort: z.number().int().min(0).max(65_535).optional(),
    sinks: z.array(SinkConfigSchema).min(1, "nowhere to deliver: give at least one destination"),
  })
  .refine((c) => !(c.state && c.stateDir), { message: "give state or stateDir, not both", path: ["stateDir"] });
export type MonitorConfig = z.infer<typeof MonitorConfigSchema>;
