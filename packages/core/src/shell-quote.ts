/**
 * One argument quoted for a POSIX shell, so a command we print runs as printed when pasted:
 * plain words stay as they are, anything else goes in single quotes with each `'` written `'\''`.
 */
export function shellQuote(arg: string): string {
  if (arg !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
