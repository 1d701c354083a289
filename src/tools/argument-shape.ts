// A check of a call's arguments as a whole, before any schema or handler walks them. Kept apart from the
// registry so the daemon's thin client (which never loads the tools) refuses the same calls.

/** Far deeper than any tool's arguments nest; deeper is refused before a recursive walk (JSON.stringify, zod) overflows the stack on it. */
export const MAX_ARGUMENT_DEPTH = 64;

function fieldPath(path: readonly (string | number)[]): string {
  const shown = path.slice(0, 4).join('.');
  return path.length > 4 ? `${shown}...` : shown || '(arguments)';
}

/**
 * Why the arguments cannot be taken at all, naming the field, or undefined: nesting past MAX_ARGUMENT_DEPTH, or a
 * "__proto__" key, which a JSON parser that copies objects turns into the object's prototype (the key vanishes and
 * its value is inherited): refused as the unknown field it is. Iterative, so the check itself cannot overflow.
 */
export function argumentShapeProblem(args: unknown): string | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: args, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (path.length > MAX_ARGUMENT_DEPTH) return `${fieldPath(path)}: nested deeper than ${MAX_ARGUMENT_DEPTH} levels`;
    const prototype = Object.getPrototypeOf(value) as unknown;
    if (prototype !== (Array.isArray(value) ? Array.prototype : Object.prototype)) {
      return `unknown field "__proto__"${path.length > 0 ? ` in ${fieldPath(path)}` : ''} (it would set the object's prototype)`;
    }
    if (Array.isArray(value)) value.forEach((item, index) => stack.push({ value: item, path: [...path, index] }));
    else for (const [key, item] of Object.entries(value)) stack.push({ value: item, path: [...path, key] });
  }
  return undefined;
}
