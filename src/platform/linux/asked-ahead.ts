// Asking about what a listing found last time before the listing itself goes out. The X server answers one connection's
// requests in order, so facts asked in the same write as a listing are as current as it is: a listing that finds the
// same windows again (the common case) then costs one round trip, not one for the list and one for each window's facts.

/**
 * Starts `ask` for each of the ids found last time, and returns what gives the facts of an id found now: the answer
 * already under way, or a new question for an id not found last time (an answer asked ahead and not wanted is dropped).
 */
export function askedAhead<T>(foundBefore: readonly number[], ask: (id: number) => Promise<T>): (id: number) => Promise<T> {
  const ahead = new Map(foundBefore.map((id) => [id, ask(id)]));
  return (id) => ahead.get(id) ?? ask(id);
}
