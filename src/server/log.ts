/** Diagnostics go to stderr only: stdout belongs to the MCP protocol or the CLI result. */
export function logToStderr(message: string): void {
  process.stderr.write(`cup-driver: ${message}\n`);
}
