/**
 * Destination factories, keyed by the configuration's `type`: the only place that turns a sink
 * entry of the configuration into a Sink. A type without a factory here is refused when the
 * monitor starts (and by `--check`), naming the type.
 */

import { commandSink } from "../sinks/command.js";
import { discordSink } from "../sinks/discord.js";
import { emailSink } from "../sinks/email.js";
import { pagerDutySink } from "../sinks/pagerduty.js";
import type { Sink } from "../sinks/sink.js";
import { slackSink } from "../sinks/slack.js";
import { telegramSink } from "../sinks/telegram.js";
import { stdoutSink, webhookSink } from "../sinks-basic.js";
import type { SinkConfig } from "./schema.js";

export type SinkContext = { write: (line: string) => void };
/** Each sink type's configuration, by type. */
type SinkConfigOf = { [T in SinkConfig["type"]]: Extract<SinkConfig, { type: T }> & { id: string } };
export type SinkFactories = { [T in keyof SinkConfigOf]?: (config: SinkConfigOf[T], ctx: SinkContext) => Sink };

export const SINK_FACTORIES: SinkFactories = {
  stdout: (c, ctx) => stdoutSink({ id: c.id, write: ctx.write }),
  webhook: (c) => webhookSink({ id: c.id, url: c.url, secret: c.secret }),
  // Issue 30 items 1-2: the services' destinations (sinks/<type>.ts), one line each.
  slack: (c) => slackSink(c),
  discord: (c) => discordSink(c),
  telegram: (c) => telegramSink(c),
  pagerduty: (c) => pagerDutySink(c),
  email: (c) => emailSink(c),
  command: (c) => commandSink(c),
};

/** Sink ids default to the type: the first slack is "slack", the second needs an id of its own. */
export const sinkIdOf = (c: SinkConfig) => c.id ?? c.type;

export function buildSink(c: SinkConfig, ctx: SinkContext, factories: SinkFactories = SINK_FACTORIES): Sink {
  return buildOfType(c.type, { ...c, id: sinkIdOf(c) }, ctx, factories);
}

// Generic in the type, so TypeScript pairs the factory with its own configuration.
function buildOfType<T extends keyof SinkConfigOf>(
  type: T,
  config: SinkConfigOf[T],
  ctx: SinkContext,
  factories: SinkFactories,
): Sink {
  const factory = factories[type];
  if (!factory) throw new Error(`destination type ${type} is not available in this build`);
  return factory(config, ctx);
}
