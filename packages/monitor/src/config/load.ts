/**
 * Reads a configuration file (YAML, or JSON: YAML reads both), replaces `${NAME}` references
 * with the environment's values, and validates it with the schema. Every problem is a
 * ConfigError naming where it is (`sinks.1.routingKey: ...`), which `--check` prints.
 */
import { readFileSync } from "node:fs";
import { KusdError } from "@kusd/core";
import { parse } from "yaml";
import type { z } from "zod";
import { type MonitorConfig, MonitorConfigSchema } from "./schema.js";

export class ConfigError extends KusdError<{ problems: string[] }> {
  override name = "ConfigError";
  readonly code: string = "monitor_config_invalid";
  constructor(problems: string[]) {
    super(problems.join("\n"), { problems });
  }
}

const REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Replaces `${NAME}` in every string; a name the environment lacks is a problem, not an empty string. */
export function resolveEnvRefs(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
  path = "",
): unknown {
  if (typeof value === "string")
    return value.replace(REF, (_, name: string) => {
      const v = env[name];
      if (v === undefined || v === "") problems.push(`${path || "(root)"}: environment variable ${name} is not set`);
      return v ?? "";
    });
  if (Array.isArray(value))
    return value.map((v, i) => resolveEnvRefs(v, env, problems, path ? `${path}.${i}` : `${i}`));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, resolveEnvRefs(v, env, problems, path ? `${path}.${k}` : k)]),
    );
  return value;
}

export const describeIssues = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`);

export function parseMonitorConfig(raw: unknown, env: Readonly<Record<string, string | undefined>>): MonitorConfig {
  const problems: string[] = [];
  const resolved = resolveEnvRefs(raw, env, problems);
  if (problems.length) throw new ConfigError(problems);
  const parsed = MonitorConfigSchema.safeParse(resolved);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error));
  const ids = new Set<string>();
  for (const [i, s] of parsed.data.sinks.entries()) {
    const id = s.id ?? s.type;
    if (ids.has(id)) problems.push(`sinks.${i}.id: ${id} is already used: give each destination of a type its own id`);
    ids.add(id);
  }
  if (problems.length) throw new ConfigError(problems);
  return parsed.data;
}

export function loadMonitorConfig(path: string, env: Readonly<Record<string, string | undefined>>): MonitorConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ConfigError([`${path}: ${(e as Error).message}`]);
  }
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (e) {
    throw new ConfigError([`${path}: not YAML or JSON: ${(e as Error).message}`]);
  }
  return parseMonitorConfig(raw, env);
}
