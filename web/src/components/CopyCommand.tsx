/** A figure's reproduction command, one click from the clipboard. */
import { useState } from "preact/hooks";

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard permission (an http origin other than localhost): select a hidden copy instead.
    const area = document.createElement("textarea");
    area.value = text;
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}

export function CopyCommand({ command, label = "cast" }: { command: string | undefined; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  if (!command) return null;
  return (
    <button
      type="button"
      class={`copy ${state}`}
      title={command}
      data-command={command}
      onClick={async () => {
        setState((await copy(command)) ? "copied" : "failed");
        setTimeout(() => setState("idle"), 1500);
      }}
    >
      {state === "copied" ? "copied" : state === "failed" ? "select it" : label}
    </button>
  );
}

/** Every command of a section, for those who want to re-check all of it. */
export function CommandList({ commands }: { commands: readonly string[] | undefined }) {
  if (!commands?.length) return null;
  return (
    <details class="commands">
      <summary>
        verify ({commands.length} command{commands.length === 1 ? "" : "s"})
      </summary>
      <ul>
        {commands.map((c) => (
          <li key={c}>
            <code>{c}</code> <CopyCommand command={c} label="copy" />
          </li>
        ))}
      </ul>
    </details>
  );
}
