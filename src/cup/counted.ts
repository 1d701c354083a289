// A count with its noun, in the number the count takes: "1 more item", "2 more items" (a hint read "1 more items").

/** `count` and the noun in its number: the plural is the noun with an "s" unless given. */
export function counted(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
