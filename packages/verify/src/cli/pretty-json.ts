/**
 * Re-indents JSON text without parsing its values. The signed payload carries numbers that
 * JSON.parse would change in print (a wei amount of 37 digits becomes 4.87e+36, `1.0` becomes
 * `1`), and a verifier must show what was signed, so every literal is copied as published.
 * The input must already be valid JSON (the caller has parsed it once); only whitespace
 * outside strings is dropped and re-inserted.
 */
export function prettyJsonText(text: string, indent = "  "): string {
  let out = "";
  let depth = 0;
  let inString = false;
  let escaped = false;
  const newline = () => `\n${indent.repeat(depth)}`;

  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    switch (ch) {
      case '"':
        inString = true;
        out += ch;
        break;
      case "{":
      case "[": {
        // Keep empty containers on one line: look past whitespace for the closing bracket.
        let j = i + 1;
        while (j < text.length && /\s/.test(text[j]!)) j++;
        if (text[j] === (ch === "{" ? "}" : "]")) {
          out += ch + text[j];
          i = j;
        } else {
          depth++;
          out += ch + newline();
        }
        break;
      }
      case "}":
      case "]":
        depth--;
        out += newline() + ch;
        break;
      case ",":
        out += `,${newline()}`;
        break;
      case ":":
        out += ": ";
        break;
      case " ":
      case "\t":
      case "\n":
      case "\r":
        break;
      default:
        out += ch;
    }
  }
  return out;
}
