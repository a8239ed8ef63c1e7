import type { Command } from "commander";

/** A command's words: its subcommands at the next position, its flags (and its subcommands') anywhere. */
function wordsOf(command: Command): { subcommands: string[]; flags: string[] } {
  const flagsOf = (c: Command) => c.options.flatMap((o) => [o.short, o.long].filter((f): f is string => !!f));
  const subs = command.commands.filter((c) => c.name() !== "help");
  return {
    subcommands: subs.map((c) => c.name()),
    flags: [...new Set([...flagsOf(command), ...subs.flatMap(flagsOf), "--help"])],
  };
}

/**
 * A bash completion script for `program`, written from its commands and options, so it never
 * drifts from them: commands at the first word, a command's subcommands at the second, its flags
 * after a dash, file names otherwise. zsh runs the same through bashcompinit.
 */
export function bashCompletion(program: Command): string {
  const name = program.name();
  const top = wordsOf(program);
  const cases = program.commands
    .filter((c) => c.name() !== "help")
    .map((c) => {
      const { subcommands, flags } = wordsOf(c);
      return `    ${c.name()}) subs="${subcommands.join(" ")}"; flags="${flags.join(" ")}" ;;`;
    });
  return `# ${name} completion for bash: source <(${name} completion bash)
_${name}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" subs="" flags=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${top.subcommands.join(" ")} ${top.flags.join(" ")}" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join("\n")}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [ "$COMP_CWORD" -eq 2 ] && [ -n "$subs" ]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _${name} ${name}
`;
}

export function zshCompletion(program: Command): string {
  return `#compdef ${program.name()}
# ${program.name()} completion for zsh: source <(${program.name()} completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(program)}`;
}
