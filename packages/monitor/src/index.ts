/**
 * kusd-monitor as a library (the package's `exports`): the monitor run in a process of one's own
 * (`runMonitorCli` with the command line's arguments, `runMonitor` with parsed options), the
 * webhook signature a receiver checks, the rendering of an alert for people, and each destination.
 */
export { MONITOR_USAGE, runMonitorCli } from "./cli.js";
export {
  DELIVERY_HEADER,
  type MonitorMessage,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifyWebhook,
} from "./deliver.js";
export { fetchRegistry, type RegistryLookup, registryLookup } from "./messages/registry-lookup.js";
export { type RenderContext, renderAlert } from "./messages/render.js";
export { type MonitorIo, type MonitorOptions, runMonitor } from "./monitor.js";
export { type CommandOptions, commandSink } from "./sinks/command.js";
export { type DiscordOptions, discordSink } from "./sinks/discord.js";
export { type EmailOptions, emailSink } from "./sinks/email.js";
export { type PagerDutyOptions, pagerDutySink } from "./sinks/pagerduty.js";
export type { AlertView, DeliveryResult, Sink } from "./sinks/sink.js";
export { type SlackOptions, slackSink } from "./sinks/slack.js";
export { type TelegramOptions, telegramSink } from "./sinks/telegram.js";
