/** A value tagged with its D-Bus type, so a `v` keeps its type across marshal and unmarshal. */
export class Variant {
  constructor(
    readonly signature: string,
    readonly value: unknown,
  ) {}
}
