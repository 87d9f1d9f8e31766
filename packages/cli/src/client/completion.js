/**
 * Completion scripts for bash and zsh, made from the program's own commands and options, so a
 * new command completes without editing them. Items are not completed: that would need the
 * vault's names in the shell's memory and history.
 *
 * @param {string} shell
 * @param {import('commander').Command} program
 */
export function completionScript(shell, program) {
  const commands = program.commands.map((command) => ({
    name: command.name(),
    about: command.description(),
    options: command.options.map((option) => option.long).filter(Boolean),
  }));
  if (shell === 'bash') return bash(commands);
  if (shell === 'zsh') return zsh(commands);
  throw new Error('The shell is bash or zsh.');
}

/** @typedef {{ name: string, about: string, options: (string | undefined)[] }} Described */

/** @param {Described[]} commands */
function bash(commands) {
  const cases = commands.map((c) => `    ${c.name}) opts="${[...c.options, '--help'].join(' ')}" ;;`).join('\n');
  return `# lockit completion for bash: eval "$(lockit completion bash)"
_lockit() {
  local cur=\${COMP_WORDS[COMP_CWORD]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${commands.map((c) => c.name).join(' ')} --help --version" -- "$cur") )
    return
  fi
  local opts=""
  case "\${COMP_WORDS[1]}" in
${cases}
    completion) opts="bash zsh" ;;
    credential) opts="get store erase" ;;
  esac
  COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
complete -o default -F _lockit lockit
`;
}

/** @param {Described[]} commands */
function zsh(commands) {
  const described = commands.map((c) => `    '${c.name}:${c.about.replace(/'/g, "'\\''").replace(/:/g, '\\:')}'`).join('\n');
  const cases = commands
    .map((c) => `    ${c.name}) _values 'option' ${[...c.options, '--help'].map((o) => `'${o}'`).join(' ')} ;;`)
    .join('\n');
  return `#compdef lockit
# lockit completion for zsh: eval "$(lockit completion zsh)"
_lockit() {
  local -a commands
  commands=(
${described}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case "\${words[2]}" in
${cases}
  esac
}
compdef _lockit lockit
`;
}
