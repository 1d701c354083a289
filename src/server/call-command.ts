import { join, resolve } from 'node:path';
import { failureResult, resultText, type ToolCallResult } from '../tools/call-result.js';
import { privateTempDirectory, writeFileAtomically } from '../tools/files.js';
import { flagValue, parseArgs, readStdin, UsageError } from './cli-args.js';
import { sessionNameProblem } from './daemon/protocol.js';
import { logToStderr } from './log.js';
import { daemonRunner, inProcessRunner } from './tool-runners.js';

function parseJsonArguments(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the arguments are not valid JSON (${(error as Error).message}); pass an object such as '{"pid": 1234}'`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError('the arguments must be a JSON object, e.g. \'{"pid": 1234}\'');
  }
  return parsed;
}

/** Images go to files; the CLI prints their paths instead of base64. */
function writeImages(result: ToolCallResult, toolName: string, directory: string): { path: string; mimeType: string }[] {
  return result.images.map((image, index) => {
    if (image.writtenTo) return { path: image.writtenTo, mimeType: image.mimeType };
    const extension = image.mimeType === 'image/png' ? 'png' : 'jpg';
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const path = join(directory, `${toolName}-${stamp}-${process.pid}-${index}-${image.label}.${extension}`);
    // The name is new (time, pid, index); what stands there already is replaced only when the driver wrote it.
    writeFileAtomically(path, image.data);
    return { path, mimeType: image.mimeType };
  });
}

export const callFlags = { valued: ['image-dir', 'session'], boolean: ['json', 'no-daemon'] };

/** The tool a `call` command line names, its flags (and their values) and any --help or -h aside. */
export function calledTool(argv: readonly string[]): string | undefined {
  const words = argv.filter((word) => word !== '--help' && word !== '-h');
  return parseArgs(words, callFlags).positional[0];
}

/**
 * `cup-driver call <tool> '<json>'`: through the daemon (started on demand), so state such as element
 * snapshots carries over to the next call; `--no-daemon` runs the handler in this process. Output, exit
 * status and image files are the same either way. Returns the exit status.
 */
export async function callCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, callFlags);
  const [toolName, jsonText, ...extra] = args.positional;
  if (!toolName) throw new UsageError("call needs a tool name: cup-driver call <tool> '<json-args>' (see cup-driver tools)");
  if (extra.length > 0) throw new UsageError(`unexpected extra arguments: ${extra.join(' ')}; quote the JSON as one argument`);
  const session = flagValue(args, 'session');
  const problem = session === undefined ? undefined : sessionNameProblem(session);
  if (problem) throw new UsageError(problem);
  const toolArgs = jsonText === undefined ? {} : parseJsonArguments(jsonText === '-' ? await readStdin() : jsonText);
  const runner = args.flags.has('no-daemon') ? await inProcessRunner(session, { failurePrintedByCaller: true }) : daemonRunner('cli', session);
  const interrupted = interruptOnSigint();
  try {
    const result = await interrupted.race(runner.call(toolName, toolArgs, interrupted.signal));
    for (const notice of result.notices ?? []) logToStderr(notice);
    const imageDir = flagValue(args, 'image-dir');
    const images = writeImages(result, toolName, imageDir === undefined ? privateTempDirectory('images') : resolve(imageDir));
    if (args.flags.has('json')) {
      process.stdout.write(
        `${JSON.stringify({ isError: !result.ok, content: [{ type: 'text', text: resultText(result) }], images, structuredContent: result.structured }, null, 2)}\n`,
      );
    } else if (result.ok) {
      process.stdout.write(`${result.summary}\n`);
      if (result.body) process.stdout.write(result.body.endsWith('\n') ? result.body : `${result.body}\n`);
      for (const image of images) process.stdout.write(`image: ${image.path}\n`);
    } else {
      process.stderr.write(`cup-driver: ${resultText(result)}\n`);
    }
    if (interrupted.signal.aborted) return sigintStatus;
    if (result.ok) return sentNothing(result) ? notDeliveredStatus : 0;
    return result.failure === 'usage' ? 2 : 1;
  } finally {
    interrupted.dispose();
    await runner.close();
  }
}

/**
 * An action the call took and sent nothing of (path "none": no rung of its delivery reaches the target; the result
 * says why, and what to try): no tool error (MCP's result is no isError either), yet `call click ... && next` must not
 * go on as if the click had been made, as it did with status 0. An action found already as asked (confirmed, nothing
 * to send) is a success.
 */
const notDeliveredStatus = 3;

function sentNothing(result: ToolCallResult): boolean {
  return result.structured.path === 'none' && result.structured.effect !== 'confirmed';
}

/** The shell's status for a command ended by SIGINT (128 + 2). */
const sigintStatus = 130;
/** How long Ctrl-C waits for the cancelled call's own answer before giving up on it. */
const cancelAnswerMs = 3000;

/**
 * Ctrl-C cancels the call (the daemon or the in-process handler stops it and answers as cancelled), and the
 * CLI prints that answer and exits 130. A call that does not answer within a few seconds, or a second Ctrl-C,
 * ends the wait with a cancelled error of its own.
 */
function interruptOnSigint(): { signal: AbortSignal; race(call: Promise<ToolCallResult>): Promise<ToolCallResult>; dispose(): void } {
  const controller = new AbortController();
  let giveUp!: (result: ToolCallResult) => void;
  const gaveUp = new Promise<ToolCallResult>((resolve) => (giveUp = resolve));
  let timer: NodeJS.Timeout | undefined;
  const abandon = (why: string) => giveUp(failureResult('tool', `cancelled by Ctrl-C; ${why}`, 'cancelled'));
  const onSigint = () => {
    if (controller.signal.aborted) return abandon('a second Ctrl-C stopped waiting for the call to answer');
    controller.abort();
    timer = setTimeout(() => abandon(`the call did not answer within ${cancelAnswerMs / 1000} s of the cancel`), cancelAnswerMs);
  };
  process.on('SIGINT', onSigint);
  return {
    signal: controller.signal,
    race: (call) => Promise.race([call, gaveUp]),
    dispose: () => {
      clearTimeout(timer);
      process.off('SIGINT', onSigint);
    },
  };
}
