import { z } from 'zod';
import { DEFAULT_IDLE_MS, DEFAULT_WAIT_MS, MAX_WAIT_MS, waitForConditions } from '../../tui/wait.js';
import { defineTerminalTool } from './define.js';

import { selectorArgument } from './schemas.js';

const conditionFields = {
  selector: selectorArgument.optional().describe('A node matching this selector exists.'),
  text: z.string().min(1).max(1000).optional().describe('This exact text appears on the screen.'),
  newText: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe(
      'This exact text is printed after the last input sent to the program: it appears after where the cursor stood then (scrolled lines ' +
        'included), so a shell\'s or REPL\'s next prompt is told from the ones already on screen. On the alternate screen, anywhere on it.',
    ),
  idle: z.boolean().optional().describe(`No output from the program for idleMs (default ${DEFAULT_IDLE_MS} ms).`),
  idleMs: z.number().int().min(1).max(MAX_WAIT_MS).optional().describe('Quiet time that counts as idle.'),
  stableMs: z.number().int().min(1).max(MAX_WAIT_MS).optional().describe('The screen has not changed for this many ms.'),
  exited: z.boolean().optional().describe('The program has exited.'),
  gone: z
    .boolean()
    .optional()
    .describe('Wait until the selector matches nothing and the text is not on the screen instead (needs selector or text in the same condition).'),
};

export const tuiWaitFor = defineTerminalTool({
  name: 'tui_wait_for',
  title: 'Wait for a terminal condition',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'Block until the terminal reaches a state: a selector matches, text appears (newText: printed after the last input), or with gone: true they are gone, the program is idle (no output), the screen is stable, ' +
    `or the program exited; fields given together must all hold, and "all" adds more conditions. Timeout ${DEFAULT_WAIT_MS} ms by default ` +
    `(at most ${MAX_WAIT_MS}); on timeout the error carries the current screen (and, for gone, what is still there).`,
  input: {
    ...conditionFields,
    all: z.array(z.strictObject(conditionFields)).max(20).optional().describe('More conditions, all of which must hold.'),
    timeoutMs: z.number().int().min(0).max(MAX_WAIT_MS).default(DEFAULT_WAIT_MS),
  },
  output: z.object({ elapsedMs: z.number(), seq: z.number() }),
  async handle(args, { session }, context) {
    const { all, timeoutMs, session: _name, ...own } = args;
    const result = await waitForConditions(session, { conditions: [own, ...(all ?? [])], timeoutMs, signal: context.signal });
    return { summary: `✅ condition met after ${result.elapsedMs} ms (seq ${result.seq})`, structured: { ...result } };
  },
});
