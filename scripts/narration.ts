/**
 * Phrases that narrate how the work was organised rather than say what the project is: the
 * project's files speak of the project, with dates and commits; who tried what when is `git log`.
 * A database or MCP session is the project's own word and stays ("the same session as the lock",
 * "this session's spend cap"); numbered or relative sessions and rounds of work are not.
 */
const ORDINALS = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth";

export const NARRATION: readonly RegExp[] = [
  new RegExp(`\\b(${ORDINALS}) session\\b`, "i"),
  /\b(next|previous|earlier|later|last) session\b/i,
  /\bthis session's (trials?|runs?|changes?|measurements?|work)\b/i,
  /\b(in|of|during) (a|one|this|that) session\b/i,
  /\bround of work\b/i,
];

export type NarrationHit = { line: number; text: string };

/** The lines of `text` that narrate, 1-based. */
export function narrationIn(text: string): NarrationHit[] {
  const hits: NarrationHit[] = [];
  text.split("\n").forEach((line, i) => {
    if (NARRATION.some((re) => re.test(line))) hits.push({ line: i + 1, text: line.trim() });
  });
  return hits;
}
