/**
 * Destination factories, keyed by the configuration's `type`: the only place that turns a sink
 * entry of the configuration into a Sink. A type without a factory here is refused when the
 * monitor starts (and by `--check`), naming the type.
 */

import type { Sink } from "../sinks/sink.js";
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
  // ISSUE 30 ITEMS 1-2 PLUG IN HERE, one line per destination type, e.g.
  //   slack: (c) => slackSink(c),
  //   pagerduty: (c) => pagerDutySink(c),
};

/** Sink ids default to the type: the first slack is "slack", the second needs an id of its own. */
export const sinkIdOf = (c: SinkConfig) => c.id ?? c.type;

export function buildSink(c: SinkConfig, ctx: SinkContext, factories: SinkFactories = SINK_FACTORIES): Sink {
  const factory = factories[c.type] as FactoryOf<typeof c.type> | undefined;
  if (!factory) throw new Error(`destination type ${c.type} is not available in this build`);
  return factory({ ...c, id: sinkIdOf(c) } as never, ctx);
}
