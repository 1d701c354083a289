/** Diagnostics go to stderr only: stdout belongs to the MCP protocol or the CLI result. */
export function logToStderr(message: string): void {
  process.stderr.write(`cup-driver: ${message}\n`);
}

/** CUP_DRIVER_DEBUG=1 asks for the detail users are otherwise spared, such as the stack trace behind a failure. */
export function debugEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CUP_DRIVER_DEBUG === '1';
}
