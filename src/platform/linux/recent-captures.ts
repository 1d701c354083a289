import type { RawImage } from '../../image/raw-image.js';

/** What a capture's bytes mean besides the bytes themselves. */
export interface CaptureLayout {
  width: number;
  height: number;
  depth: number;
  visual: number;
}

interface Kept {
  layout: CaptureLayout;
  source: Buffer;
  image: RawImage;
}

const sameLayout = (a: CaptureLayout, b: CaptureLayout) => a.width === b.width && a.height === b.height && a.depth === b.depth && a.visual === b.visual;

/**
 * The last pixels captured of the few windows read most recently. A capture whose bytes are those of its
 * window's last capture gets the same RawImage back: the conversion is not redone, and the encoding made of
 * it (encodePng keys on the image object) is shared. Reading an unchanged window again (several agents, or
 * one that polls) then costs a GetImage and a comparison. Every capture is still taken after its call
 * asked, so what it returns is never older than the call; only the work done on equal pixels is reused.
 */
export class RecentCaptures {
  /** By window, least recently captured first. */
  private readonly kept = new Map<number, Kept>();

  /** `windows`: how many windows' last captures are kept (each holds its raw and converted pixels). */
  constructor(private readonly windows: number) {}

  /** The image of these bytes: the window's last one when its bytes and layout are these, else convert()'s. */
  image(windowId: number, layout: CaptureLayout, source: Buffer, convert: () => RawImage): RawImage {
    const last = this.kept.get(windowId);
    this.kept.delete(windowId);
    if (last && sameLayout(last.layout, layout) && last.source.equals(source)) {
      this.kept.set(windowId, last);
      return last.image;
    }
    const image = convert();
    this.kept.set(windowId, { layout, source, image });
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= this.windows) break;
      this.kept.delete(oldest);
    }
    return image;
  }

  /** Drops every kept capture (the X server they came from is gone). */
  clear(): void {
    this.kept.clear();
  }
}
