// Shell completion for bash and zsh. The scripts are thin: on TAB they run
// `hc __complete WORD…` (the words typed so far, the one under the cursor last), and this module
// answers from the command tree itself, so completion never disagrees with the commands.
import type { Command, Option } from 'commander';
import { FORMATS } from './output.js';
import { TAKES_SERVER } from './runtime.js';

export const BASH = `# hc completion for bash. Load it with:  source <(hc completion bash)
# or save it:  hc completion bash > ~/.local/share/bash-completion/completions/hc
_hc_complete() {
  local IFS=$'\\n'
  COMPREPLY=( $(hc __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) )
}
complete -o default -F _hc_complete hc
`;

export const ZSH = `#compdef hc
# hc completion for zsh. Load it with:  source <(hc completion zsh)   (after compinit)
# or save it as _hc in a directory of your $fpath.
_hc() {
  local -a candidates
  candidates=("\${(@f)$(hc __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a candidates
}
if (( $+functions[compdef] )); then compdef _hc hc; fi
`;

const visible = (c: Command) => !(c as unknown as { _hidden?: boolean })._hidden;
const longFlags = (o: Option) => [o.long, o.short].filter((f): f is string => !!f);

/** Candidates for the last word, given the words before it (after `hc`); `servers` lists server names, asked only where one goes. */
export async function complete(program: Command, words: string[], contexts: string[] = [], servers: () => Promise<string[]> = async () => []): Promise<string[]> {
  const current = words.at(-1) ?? '';
  let cmd = program;
  const chain: Command[] = [program];
  const before = words.slice(0, -1);
  /** Words after the deepest command that are not options: its positional arguments so far. */
  let positionals = 0;
  for (let i = 0; i < before.length; i++) {
    const w = before[i]!;
    if (w.startsWith('-')) {
      // Skip an option's value: `--context prod server …`.
      const opt = chain.flatMap((c) => c.options).find((o) => longFlags(o).includes(w));
      if (opt && (opt.required || opt.optional) && !w.includes('=')) i++;
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (sub) {
      cmd = sub;
      chain.push(sub);
      positionals = 0;
    } else {
      positionals++;
    }
  }
  const prev = before.at(-1);
  if (prev === '-o' || prev === '--output') return FORMATS.filter((f) => f.startsWith(current));
  if (prev === '--context') return contexts.filter((c) => c.startsWith(current));
  if (prev && prev.startsWith('-')) {
    const opt = chain.flatMap((c) => c.options).find((o) => longFlags(o).includes(prev));
    if (opt?.argChoices) return opt.argChoices.filter((c) => c.startsWith(current));
    if (opt && (opt.required || opt.optional)) return [];
  }
  if (current.startsWith('-')) {
    return [...new Set(chain.flatMap((c) => c.options).flatMap(longFlags).concat('--help'))].filter((f) => f.startsWith(current)).sort();
  }
  if (cmd.name() === 'completion') return ['bash', 'zsh'].filter((s) => s.startsWith(current));
  if (TAKES_SERVER.has(cmd) && positionals === 0) return (await servers()).filter((n) => n.startsWith(current)).sort();
  if (cmd.name() === 'use' || cmd.name() === 'remove') return contexts.filter((c) => c.startsWith(current));
  return cmd.commands.filter(visible).map((c) => c.name()).filter((n) => n.startsWith(current)).sort();
}
