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
type FactoryOf<T extends SinkConfig["type"]> = (
  config: Extract<SinkConfig, { type: T }> & { id: string },
  ctx: SinkContext,
) => Sink;
export type SinkFactories = { [T in SinkConfig["type"]]?: FactoryOf<T> };

export const SINK_FACTORIES: SinkFactories = {
  stdout: (c, ctx) => stdoutSink({ id: c.id, write: ctx.write }),
  webhook: (c) => webhookSink({ id: c.id, url: c.url, secret: c.secret }),
  // Issue 30 items 1-2: the services' destinations (clients/monitor/sinks/<type>.ts), one line each.
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
  const factory = factories[c.type] as FactoryOf<typeof c.type> | undefined;
  if (!factory) throw new Error(`destination type ${c.type} is not available in this build`);
  return factory({ ...c, id: sinkIdOf(c) } as never, ctx);
}
