/** Where npm itself would look: npm_config_registry (set by npm, or by the user), else the public registry. */
export function registryUrl(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.npm_config_registry || env.NPM_CONFIG_REGISTRY || 'https://registry.npmjs.org/';
  return configured.endsWith('/') ? configured : `${configured}/`;
}

/** Compares dotted versions (1.10.0 > 1.9.2); a pre-release (1.2.0-beta.1) is older than its release. */
export function compareVersions(a: string, b: string): number {
  const parse = (version: string) => {
    const [core = '', pre] = version.trim().replace(/^v/, '').split('-', 2);
    return { parts: core.split('.').map((part) => Number.parseInt(part, 10) || 0), pre };
  };
  const left = parse(a);
  const right = parse(b);
  for (let index = 0; index < Math.max(left.parts.length, right.parts.length); index++) {
    const difference = (left.parts[index] ?? 0) - (right.parts[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  if (left.pre === right.pre) return 0;
  if (left.pre === undefined) return 1;
  if (right.pre === undefined) return -1;
  return left.pre < right.pre ? -1 : 1;
}

export type UpdateStatus = 'up_to_date' | 'update_available' | 'newer_than_published' | 'not_published' | 'unreachable';

export interface UpdateAnswer {
  status: UpdateStatus;
  latest: string | null;
  url: string;
  detail: string;
  elapsed_ms: number;
}

/**
 * The registry's latest version of `name`, within capMs whatever the network does (offline, a DNS failure, a
 * server that never answers): every outcome is an answer, never a hang or a throw.
 */
export async function latestPublished(name: string, current: string, capMs: number, signal?: AbortSignal): Promise<UpdateAnswer> {
  const url = `${registryUrl()}${encodeURIComponent(name)}/latest`;
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  const bound = AbortSignal.timeout(capMs);
  try {
    const response = await fetch(url, { signal: signal ? AbortSignal.any([bound, signal]) : bound, headers: { accept: 'application/json' } });
    if (response.status === 404) {
      await response.body?.cancel();
      return { status: 'not_published', latest: null, url, detail: `the registry has no package "${name}"`, elapsed_ms: elapsed() };
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { status: 'unreachable', latest: null, url, detail: `the registry answered HTTP ${response.status}`, elapsed_ms: elapsed() };
    }
    const body = (await response.json()) as { version?: unknown };
    if (typeof body.version !== 'string') return { status: 'unreachable', latest: null, url, detail: 'the registry\'s answer has no version', elapsed_ms: elapsed() };
    const order = compareVersions(body.version, current);
    const status: UpdateStatus = order > 0 ? 'update_available' : order < 0 ? 'newer_than_published' : 'up_to_date';
    return { status, latest: body.version, url, detail: `the registry's latest is ${body.version}`, elapsed_ms: elapsed() };
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    const detail = bound.aborted ? `no answer within ${capMs / 1000} s (offline, or the registry is slow)` : `could not reach the registry: ${cause}`;
    return { status: 'unreachable', latest: null, url, detail, elapsed_ms: elapsed() };
  }
}
