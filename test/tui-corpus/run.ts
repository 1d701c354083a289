// Runs one corpus program through the terminal tools: a private working directory and HOME, its steps
// pressed with tui_press/tui_type, and after each step a callback that reads the screen through the tools.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ToolContext } from '../../src/tools/context.js';
import type { UINode } from '../../src/tui/ui-node.js';
import type { VisualFrame } from '../../src/tui/visual-frame.js';
import { callOk } from '../helpers/tools.js';
import { DEFAULT_PROGRAMS } from '../../src/tui/security/policy.js';
import { createContext } from '../../src/server/session.js';
import type { ScreenReader } from './facts.js';
import type { CorpusProgram, Step } from './programs.js';

/** A reader on a live session: each call goes through tui_query_all or tui_snapshot. */
export function liveReader(context: ToolContext, session: string): ScreenReader {
  return {
    all: async (selector) => (await callOk(context, 'tui_query_all', { selector, session })).structured.nodes as UINode[],
    focusId: async () => ((await callOk(context, 'tui_snapshot', { session, format: 'none', visual: false })).structured.frame as { focus: string | null }).focus,
  };
}

async function screenSeq(context: ToolContext, session: string): Promise<number> {
  return (await callOk(context, 'tui_snapshot', { session, format: 'none', visual: false })).structured.seq as number;
}

/** Until the screen's seq passes `seq`, for at most 10 s. */
async function screenChange(context: ToolContext, session: string, seq: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await callOk(context, 'tui_changes_since', { session, seq })).structured.changed) {
    if (Date.now() > deadline) throw new Error(`the screen of ${session} did not change within 10 s after the step's keys`);
    await sleep(20);
  }
}

export interface StepScreen {
  step: Step;
  reader: ScreenReader;
  /** The screen after the step, as tui_snapshot returns it. */
  visual: VisualFrame;
}

/**
 * Starts the program in a fresh temp directory (its cwd) with a fresh HOME (the XDG directories inside it),
 * runs each step and hands the screen after it to `after`; stops the program with tui_stop and removes
 * both directories whatever happens. Returns the program's pid (its session's leader). `size` overrides the
 * program's own terminal size.
 */
export async function runProgram(
  context: ToolContext,
  program: CorpusProgram,
  after: (screen: StepScreen) => Promise<void>,
  size?: { cols: number; rows: number },
): Promise<{ pid: number }> {
  // HOME apart from the working directory, so file lists show only the files the program's entry made.
  const work = mkdtempSync(join(tmpdir(), `cup-corpus-${program.name}-`));
  const home = mkdtempSync(join(tmpdir(), `cup-corpus-home-${program.name}-`));
  program.prepare?.(work);
  const session = `corpus-${program.name}`;
  const sleepers: ChildProcess[] = (program.sleepers ?? []).map((seconds) => spawn('sleep', [seconds], { stdio: 'ignore' }));
  try {
    const started = await callOk(context, 'tui_start', {
      session,
      command: program.command,
      args: program.args(work),
      cwd: join(work, program.cwd ?? '.'),
      env: {
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        XDG_DATA_HOME: join(home, '.local', 'share'),
        XDG_CACHE_HOME: join(home, '.cache'),
        LANG: 'C.UTF-8',
        ...program.env,
      },
      cols: size?.cols ?? program.cols ?? 80,
      rows: size?.rows ?? program.rows ?? 24,
    });
    const reader = liveReader(context, session);
    for (const step of program.steps) {
      const before = await screenSeq(context, session);
      for (const key of step.keys ?? []) await callOk(context, 'tui_press', { key, session });
      if (step.type) await callOk(context, 'tui_type', { text: step.type, session });
      // Every scripted key changes the screen; waiting for that first keeps a slow redraw from being read
      // as the old screen (the step's text is often on the screen before the keys too).
      if (step.keys || step.type) await screenChange(context, session, before);
      await callOk(context, 'tui_wait_for', { session, text: step.until, stableMs: 300, timeoutMs: 15_000 });
      const snapshot = await callOk(context, 'tui_snapshot', { session, format: 'none' });
      await after({ step, reader, visual: snapshot.structured.visual as VisualFrame });
    }
    return { pid: started.structured.pid as number };
  } finally {
    await callOk(context, 'tui_stop', { session }).catch(() => undefined);
    for (const sleeper of sleepers) sleeper.kill();
    for (const directory of [work, home]) rmSync(directory, { recursive: true, force: true });
  }
}

/** Where the screen after a step is recorded. */
export function recordingName(program: CorpusProgram, step: Step): string {
  return `${program.name}-${step.name}`;
}

/**
 * A tool context whose policy file adds the corpus programs the default allowlist leaves out (see
 * docs/terminal-driver.md), in a config directory of its own.
 */
export function corpusContext(programs: readonly CorpusProgram[]): ToolContext {
  const config = mkdtempSync(join(tmpdir(), 'cup-corpus-config-'));
  process.once('exit', () => rmSync(config, { recursive: true, force: true }));
  const extra = [...new Set(programs.map((program) => program.command))].filter((command) => !(DEFAULT_PROGRAMS as readonly string[]).includes(command));
  mkdirSync(join(config, 'cup-driver'));
  writeFileSync(join(config, 'cup-driver', 'terminal-policy.json'), JSON.stringify({ extraPrograms: extra }));
  process.env.XDG_CONFIG_HOME = config;
  return createContext({ session: 'corpus', persistConfig: false });
}
