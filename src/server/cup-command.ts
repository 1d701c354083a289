import { toCompact, toOverview, validateEnvelope, type CupEnvelope } from '../cup/index.js';
import { flagValue, parseArgs, readStdin, unknownWord, UsageError } from './cli-args.js';

function parseEnvelope(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`stdin is not valid JSON (${(error as Error).message}); pipe a CUP envelope into this command`);
  }
}

function requireRenderable(value: unknown): CupEnvelope {
  const envelope = value as Partial<CupEnvelope> | null;
  if (!envelope || typeof envelope !== 'object' || !Array.isArray(envelope.tree) || typeof envelope.screen?.w !== 'number') {
    throw new UsageError('stdin is not a CUP envelope: it needs at least "screen": {"w", "h"} and a "tree" array (see cup-driver cup validate)');
  }
  return envelope as CupEnvelope;
}

/** `cup-driver cup compact|overview|validate`: the CUP core on its own, envelope on stdin. Returns the exit status. */
export async function cupCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { valued: ['detail', 'max-chars'] });
  const [action, ...extra] = args.positional;
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  switch (action) {
    case 'compact': {
      const detail = flagValue(args, 'detail') ?? 'compact';
      if (detail !== 'compact' && detail !== 'full') throw new UsageError(`--detail must be compact or full, got "${detail}"`);
      const maxCharsText = flagValue(args, 'max-chars');
      const maxChars = maxCharsText === undefined ? undefined : Number(maxCharsText);
      if (maxChars !== undefined && (!Number.isInteger(maxChars) || maxChars < 0)) {
        throw new UsageError(`--max-chars must be a whole number (0 = no cap), got "${maxCharsText}"`);
      }
      process.stdout.write(toCompact(requireRenderable(parseEnvelope(await readStdin())), { detail, maxChars }));
      return 0;
    }
    case 'overview':
      process.stdout.write(toOverview(requireRenderable(parseEnvelope(await readStdin()))));
      return 0;
    case 'validate': {
      const result = validateEnvelope(parseEnvelope(await readStdin()));
      if (result.valid) {
        process.stdout.write('valid CUP envelope\n');
        return 0;
      }
      process.stdout.write(`${result.errors.join('\n')}\n`);
      return 1;
    }
    default:
      throw unknownWord('cup command', action, ['compact', 'overview', 'validate'], 'cup compact [--detail compact|full] | cup overview | cup validate');
  }
}
