import { arch, platform } from 'node:os';
import { z } from 'zod';
import { packageVersion } from '../../server/version.js';
import { defineTool } from '../tool.js';
import { latestPublished } from './update-check.js';

const checkResult = z.object({ name: z.string(), ok: z.boolean(), detail: z.string(), fix: z.string().optional(), optional: z.boolean().optional() });

export const checkPermissions = defineTool({
  name: 'check_permissions',
  capability: 'config',
  title: 'Check what the driver needs',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'Check, on Linux, what the driver needs instead of macOS\'s permissions (there is no TCC: nothing is granted, so nothing is prompted; ' +
    '`prompt` is accepted and ignored): the X server answers, it has XTEST (real input), a window manager runs, the accessibility bus answers ' +
    'and accessibility is switched on (org.a11y.Status.IsEnabled), apps are registered on it, and ffmpeg is installed (video recording). ' +
    'Each check says what it found and, when not ok, the fix. Every check is bounded (3 s).',
  input: z.strictObject({ prompt: z.boolean().optional().describe('macOS only (raises TCC prompts); ignored on Linux.') }),
  output: z.object({ ok: z.boolean(), checks: z.array(checkResult) }),
  async handle(_args, context) {
    const checks = await context.desktop.healthChecks();
    const failed = checks.filter((check) => !check.ok && !check.optional);
    const warned = checks.filter((check) => !check.ok && check.optional);
    const lines = checks.map((check) => `${check.ok ? '✓' : check.optional ? '!' : '✗'} ${check.name}: ${check.detail}${check.ok || !check.fix ? '' : `\n    fix: ${check.fix}`}`);
    return {
      summary: failed.length
        ? `❌ ${failed.length} of ${checks.length} checks failed: ${failed.map((check) => check.name).join(', ')}`
        : `✅ everything the driver needs is there${warned.length ? ` (${warned.length} optional: ${warned.map((check) => check.name).join(', ')})` : ''}`,
      body: lines.join('\n'),
      structured: { ok: failed.length === 0, checks },
    };
  },
});

export const healthReport = defineTool({
  name: 'health_report',
  capability: 'config',
  title: 'Report the driver\'s health',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'Versions (cup-driver, Node, the X server, the window manager, the kernel), the desktop (display, screen), where calls run (the daemon: ' +
    'pid, socket, start time, connected clients; or this process), the sessions kept with what each owns, the open connections (X11, the ' +
    'accessibility bus, live tree mirrors, clipboard ownership), and the checks of check_permissions.',
  input: z.strictObject({}),
  output: z.object({
    versions: z.object({ cup_driver: z.string(), node: z.string(), platform: z.string() }),
    host: z.object({ kind: z.string(), pid: z.number(), started_at: z.string(), socket: z.string().optional(), connections: z.number().optional() }),
    desktop: z.record(z.string(), z.unknown()),
    sessions: z.array(z.object({ session: z.string(), declared: z.boolean(), busy: z.boolean(), idle_s: z.number(), owns: z.array(z.string()) })),
    checks: z.array(checkResult),
  }),
  async handle(_args, context) {
    const [facts, checks] = await Promise.all([context.desktop.healthFacts(), context.desktop.healthChecks()]);
    const host = context.sessions.host;
    const sessions = context.sessions.list().map((info) => ({
      session: info.session,
      declared: info.declared,
      busy: info.busy,
      idle_s: Math.round(info.idleMs / 1000),
      owns: info.resources.map((resource) => resource.label),
    }));
    const versions = { cup_driver: packageVersion, node: process.version, platform: `${platform()} ${arch()}` };
    const hostRecord = {
      kind: host.kind,
      pid: host.pid,
      started_at: host.startedAt,
      ...(host.socket ? { socket: host.socket } : {}),
      ...(host.connections ? { connections: host.connections() } : {}),
    };
    const failed = checks.filter((check) => !check.ok && !check.optional);
    const xServer = facts.x_server as { vendor?: string; release?: number; display?: string } | undefined;
    const lines = [
      `cup-driver ${versions.cup_driver}, Node ${versions.node}, ${versions.platform} (kernel ${String(facts.kernel)})`,
      `X server: ${xServer?.vendor ? `${xServer.vendor} ${xServer.release} on ${xServer.display}` : JSON.stringify(facts.x_server)}; window manager: ${String(facts.window_manager ?? 'none')}`,
      `calls run in: ${host.kind === 'daemon' ? `the daemon pid ${host.pid} on ${host.socket} (since ${host.startedAt}, ${hostRecord.connections ?? 0} clients connected)` : `this process, pid ${host.pid}`}`,
      `connections: ${JSON.stringify(facts.connections)}`,
      `sessions (${sessions.length}): ${sessions.map((item) => `${item.session}${item.busy ? ' (busy)' : ` (idle ${item.idle_s} s)`}`).join(', ')}`,
      `checks: ${checks.map((check) => `${check.name} ${check.ok ? 'ok' : check.optional ? 'warning' : 'FAILED'}`).join(', ')}`,
    ];
    return {
      summary: failed.length ? `❌ unhealthy: ${failed.map((check) => `${check.name} (${check.detail})`).join('; ')}` : `✅ healthy: cup-driver ${packageVersion} on ${String(facts.display)}`,
      body: lines.join('\n'),
      structured: { versions, host: hostRecord, desktop: facts, sessions, checks },
    };
  },
});

/** A slow or absent network gets an answer within this long (issue 12). */
const updateCapMs = 3000;

export const checkForUpdate = defineTool({
  name: 'check_for_update',
  capability: 'config',
  title: 'Check for a newer version',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  description:
    'Compare this cup-driver\'s version with the latest one on the npm registry (npm_config_registry when set, else registry.npmjs.org). ' +
    'Offline or unreachable is an answer (status "unreachable" with why) within 3 s, not a hang or an error. Unlike the reference driver it ' +
    'asks npm, not GitHub releases; updating is `npm install -g cup-driver@latest`.',
  input: z.strictObject({}),
  output: z.object({
    current: z.string(),
    latest: z.string().nullable(),
    update_available: z.boolean(),
    status: z.enum(['up_to_date', 'update_available', 'newer_than_published', 'not_published', 'unreachable']),
    registry_url: z.string(),
    install: z.string(),
    detail: z.string(),
    elapsed_ms: z.number(),
  }),
  async handle(_args, context) {
    const answer = await latestPublished('cup-driver', packageVersion, updateCapMs, context.signal);
    const install = 'npm install -g cup-driver@latest';
    const summaries = {
      up_to_date: `✅ cup-driver ${packageVersion} is the latest`,
      update_available: `✅ cup-driver ${answer.latest} is available (this is ${packageVersion}): ${install}`,
      newer_than_published: `✅ cup-driver ${packageVersion} is newer than the registry's latest (${answer.latest})`,
      not_published: `✅ cup-driver is not on the registry (${answer.url}); this is ${packageVersion}`,
      unreachable: `⚠️ could not check for updates: ${answer.detail}; this is cup-driver ${packageVersion}`,
    } as const;
    return {
      summary: summaries[answer.status],
      structured: {
        current: packageVersion,
        latest: answer.latest,
        update_available: answer.status === 'update_available',
        status: answer.status,
        registry_url: answer.url,
        install,
        detail: answer.detail,
        elapsed_ms: answer.elapsed_ms,
      },
    };
  },
});

export const healthTools = [checkPermissions, healthReport, checkForUpdate];
