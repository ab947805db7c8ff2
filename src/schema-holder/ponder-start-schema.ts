/**
 * The schema a `ponder start` process will lock, from its command line (`--schema X`,
 * `--schema=X`) or DATABASE_SCHEMA, as Ponder itself reads them; null for any other command
 * (`serve`, `dev`, `codegen` lock nothing of ours to recover).
 */
// Ponder's options that take a value before the command (`ponder --root . start`).
const GLOBAL_VALUE_OPTIONS = new Set(["--root", "--config", "--log-level", "--log-format"]);

export function ponderStartSchema(argv: readonly string[], env: Readonly<Record<string, string | undefined>>) {
  const bin = argv.findIndex((a) => /(^|\/)ponder(\.js)?$/.test(a));
  const args = bin >= 0 ? argv.slice(bin + 1) : argv.slice(2);
  let command = -1;
  for (let i = 0; i < args.length && command < 0; i++) {
    if (GLOBAL_VALUE_OPTIONS.has(args[i]!)) i++;
    else if (!args[i]!.startsWith("-")) command = i;
  }
  if (args[command] !== "start") return null;
  for (let i = command + 1; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--schema") return args[i + 1] || null;
    if (a.startsWith("--schema=")) return a.slice("--schema=".length) || null;
  }
  return env.DATABASE_SCHEMA || null;
}
