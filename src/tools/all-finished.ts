/**
 * Promise.all that answers only once every part has settled, then with the first failure (in order) if any. A call
 * whose one part failed early (a file it cannot write) must not answer while its other parts still run: a process
 * ending after the answer closes its connections, and a read still under way would then be left to stray.
 */
export async function allFinished<T extends readonly unknown[] | []>(parts: T): Promise<{ -readonly [P in keyof T]: Awaited<T[P]> }> {
  const settled = await Promise.allSettled<readonly unknown[]>(parts);
  for (const part of settled) if (part.status === 'rejected') throw part.reason;
  // Every part fulfilled, in the order given: the values line up with T.
  return settled.map((part) => (part as PromiseFulfilledResult<unknown>).value) as { -readonly [P in keyof T]: Awaited<T[P]> };
}
