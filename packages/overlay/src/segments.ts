/**
 * The summaries of finished segments of a `FrameRecorder`, kept by world and then by label: what
 * a new segment is compared with. A segment is compared only with one of the same world (a scene, a
 * world size), so two modes are never set side by side over different worlds. Not per frame: a segment
 * ends when what is measured changes.
 */
import type { SegmentSummary } from './types.js';

/** Finished segments' summaries by world, then label (a label's last one; Map order: the order they ended). */
export class SegmentBook {
  private readonly byWorld = new Map<string, Map<string, SegmentSummary>>();

  /** Keeps `summary` as the last of its label in its world. */
  keep(summary: SegmentSummary): void {
    let byLabel = this.byWorld.get(summary.world);
    if (!byLabel) this.byWorld.set(summary.world, (byLabel = new Map()));
    byLabel.delete(summary.label); // re-insert: Map order = the order segments ended
    byLabel.set(summary.label, summary);
  }

  /** The last summary labelled `label` in `world`, or `undefined`. */
  find(label: string, world: string): SegmentSummary | undefined {
    return this.byWorld.get(world)?.get(label);
  }

  /** The most recently ended segment of `world` with another label than `label`, or `undefined`. */
  comparison(label: string, world: string): SegmentSummary | undefined {
    let found: SegmentSummary | undefined;
    const byLabel = this.byWorld.get(world);
    if (byLabel) for (const s of byLabel.values()) if (s.label !== label) found = s;
    return found;
  }

  /** The summaries of `world` by label, in the order they ended. */
  of(world: string): Record<string, SegmentSummary> {
    const out: Record<string, SegmentSummary> = {};
    const byLabel = this.byWorld.get(world);
    if (byLabel) for (const [label, summary] of byLabel) out[label] = summary;
    return out;
  }
}
