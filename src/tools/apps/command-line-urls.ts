// Which URLs a Chromium-based browser opens from its command line. It opens only web-safe schemes, files and
// about:blank there (StartupBrowserCreator's check): chrome://settings named in launch_app's urls left the window on the
// New Tab page, and the result said nothing of it.

/** The schemes Chromium counts web-safe (ChildProcessSecurityPolicy), which its command line opens, with file:. */
const openedSchemes = new Set(['http', 'https', 'file', 'data', 'blob', 'filesystem', 'ws', 'wss']);

/** Whether Chromium leaves this URL unopened when it is named on its command line (a path without a scheme opens). */
export function chromiumSkipsOnCommandLine(url: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1]?.toLowerCase();
  if (scheme === undefined || openedSchemes.has(scheme)) return false;
  return url.trim().toLowerCase() !== 'about:blank';
}
