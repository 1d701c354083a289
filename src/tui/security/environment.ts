// The environment a terminal program starts with: the driver's own plus the caller's additions, minus
// every variable that makes a loader or interpreter run code the program did not ask for.

/** Exact names that load code or run commands at start-up. */
const INJECTION_NAMES = new Set([
  'NODE_OPTIONS', 'NODE_PATH', 'NODE_REPL_EXTERNAL_MODULE', 'BUN_OPTIONS', 'DENO_OPTIONS',
  'BASH_ENV', 'ENV', 'SHELLOPTS', 'BASHOPTS', 'PROMPT_COMMAND', 'PS4', 'ZDOTDIR', 'IFS',
  'PYTHONSTARTUP', 'PYTHONPATH', 'PYTHONHOME', 'PYTHONINSPECT', 'PYTHONUSERBASE',
  'PERL5OPT', 'PERL5LIB', 'PERLLIB', 'PERL5DB', 'RUBYOPT', 'RUBYLIB',
  'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS',
  'GCONV_PATH', 'GLIBC_TUNABLES', 'HOSTALIASES', 'MALLOC_CHECK_',
  'VIMINIT', 'EXINIT', 'MYVIMRC', 'VIMRUNTIME', 'LESSOPEN', 'LESSCLOSE', 'LESSKEY', 'LESSKEYIN',
  'GIT_EXEC_PATH', 'GIT_SSH_COMMAND', 'GIT_CONFIG_GLOBAL',
]);

/** Prefixes of families of such variables (the dynamic loader's, macOS's, bash's exported functions). */
const INJECTION_PREFIXES = ['LD_', 'DYLD_', 'BASH_FUNC_'];

/** POSIX-style names; anything else (spaces, '=', punctuation) is dropped rather than passed through. */
const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

function isInjectionVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return INJECTION_NAMES.has(upper) || INJECTION_PREFIXES.some((prefix) => upper.startsWith(prefix));
}

export interface PreparedEnvironment {
  env: Record<string, string>;
  /** Names removed, each once, so the caller can see what did not reach the program. */
  stripped: string[];
}

/** Also drops the variables of terminal multiplexers, which would make programs believe they run inside one. */
const MULTIPLEXER_NAMES = new Set(['TMUX', 'TMUX_PANE', 'STY', 'WINDOW', 'WINDOWID', 'TERMCAP', 'COLUMNS', 'LINES']);

export function prepareEnvironment(inherited: NodeJS.ProcessEnv, requested: Readonly<Record<string, string>>, driverVariables: Readonly<Record<string, string>>): PreparedEnvironment {
  const env: Record<string, string> = {};
  const stripped = new Set<string>();
  const add = (name: string, value: string | undefined, fromCaller: boolean) => {
    if (value === undefined) return;
    if (!VALID_NAME.test(name) || isInjectionVariable(name) || value.includes('\0')) {
      stripped.add(name);
      return;
    }
    // A caller's values for the driver's own variables would break the terminal or the side channel.
    if (MULTIPLEXER_NAMES.has(name) || Object.hasOwn(driverVariables, name)) {
      if (fromCaller) stripped.add(name);
      return;
    }
    env[name] = value;
  };
  for (const [name, value] of Object.entries(inherited)) add(name, value, false);
  for (const [name, value] of Object.entries(requested)) add(name, value, true);
  Object.assign(env, driverVariables);
  return { env, stripped: [...stripped].sort() };
}
