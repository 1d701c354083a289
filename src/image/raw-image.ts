/** Uncompressed pixels, tightly packed, top row first. */
export interface RawImage {
  width: number;
  height: number;
  channels: 3 | 4;
  data: Buffer;
}
