// Corpus apps as a task needs them: the corpus entry, optionally with a document to open from the command
// line (so saving needs no dialog), started with its fresh home and stopped (its process group) afterwards.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { accessibleSessionEnvironment } from '../../src/platform/linux/desktop/accessible-session.js';
import { corpus, type CorpusApp } from '../conformance/corpus.js';
import { launchApp, stopApp, type RunningApp } from '../conformance/launch.js';
import { Agent, type Transport } from './agent.js';
import { TestDesktop } from './desktop.js';
import { PyatspiOracle } from './oracle.js';

export function corpusApp(id: string): CorpusApp {
  const app = corpus.find((candidate) => candidate.id === id);
  if (!app) throw new Error(`no corpus app ${id}`);
  return app;
}

/** The corpus app opening `<home>/<file>` (written with `content` first), its window titled after the file. */
export function withDocument(id: string, file: string, content: string, extraArgs: string[] = []): CorpusApp {
  const app = corpusApp(id);
  return {
    ...app,
    args: (home) => [...extraArgs, join(home, file)],
    title: new RegExp(file.replace(/\./g, '\\.')),
    prepare: (home) => {
      app.prepare?.(home);
      writeFileSync(join(home, file), content);
    },
  };
}

/**
 * Runs the task on the freshly started app and always stops the app (by its process group) afterwards. The app
 * gets what a Debian session with accessibility installed exports (GTK 2 apps such as pcmanfm and Qt apps
 * build their trees only when asked).
 */
export async function withApp<T>(desktop: TestDesktop, app: CorpusApp, task: (running: RunningApp) => Promise<T>): Promise<T> {
  const running = await launchApp(desktop, { ...app, env: { ...accessibleSessionEnvironment({}), ...app.env } });
  try {
    return await task(running);
  } finally {
    stopApp(running);
  }
}

/** Polls a file until its content passes the check (an app writes it a moment after the save command). */
export async function fileContent(path: string, check: (content: string) => boolean, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let content = '';
  while (Date.now() < deadline) {
    content = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (check(content)) return content;
    await sleep(100);
  }
  return content;
}

/** Polls an oracle reading until it passes the check, returning the last reading either way. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await sleep(200);
  }
}

export interface TaskRig {
  desktop: TestDesktop;
  agent: Agent;
  oracle: PyatspiOracle;
}

/**
 * What a file of agent tasks shares: a private desktop, an agent speaking `transport` (with a config
 * directory of its own, and a daemon that outlives the file's pauses) and the pyatspi oracle, started
 * before the file's tests and stopped after them.
 */
export function taskRig(transport: Transport): TaskRig {
  const rig = {} as TaskRig;
  before(async () => {
    rig.desktop = await TestDesktop.start();
    rig.agent = await Agent.start(transport, rig.desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')), CUP_DRIVER_IDLE_TIMEOUT: '300' }));
    rig.oracle = new PyatspiOracle(rig.desktop.env());
  });
  after(async () => {
    rig.oracle?.close();
    await rig.agent?.close();
    await rig.desktop?.stop();
  });
  return rig;
}
