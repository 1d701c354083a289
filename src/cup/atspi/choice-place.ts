// Which option a drop-down has chosen, by the place among its options that its own attributes give.

/**
 * The choice a drop-down's attributes place among its options (posinset of setsize, counting every option): Blink
 * says so of its <select>, and leaves the option chosen before marked selected when the new one lies in another
 * <optgroup>, so the first marked option read "S" while the page held "XL". Undefined where the attributes say no
 * place, or count other options than those read.
 */
export function choiceAtPlace<T>(attributes: Readonly<Record<string, string>> | undefined, options: readonly T[]): T | undefined {
  const place = Number(attributes?.posinset);
  const size = Number(attributes?.setsize);
  if (!Number.isInteger(place) || place < 1 || size !== options.length) return undefined;
  return options[place - 1];
}
