/**
 * The scratch records of one time-of-impact query, each with a named layout (offset enums and small
 * accessors, in the manner of the BVH's `nodes.ts`): the per-call parameters, the contact records the
 * advancement keeps, the "piece" a distance kernel hands to the step rule, and the flags of the current
 * sample.
 *
 * Values travel through these typed arrays, never as arguments or return values: in V8 a double passed
 * to (or returned from) a call that is not inlined is boxed on the heap, and these run at every step of
 * the conservative advancement (Mirtich 1996; the hard-rigid-body event-driven MD paper, §2.4.2 — see
 * `docs/references.md`). Module scratch: the queries are not re-entrant.
 */

// --- per-call parameters ----------------------------------------------------------------------------------

// The layouts are enums rather than module constants so that the build (esbuild) writes the offsets into
// the code as literals: in V8 a module-level constant is a context load at every use, which measured 5–10 %
// of a convex time of impact.

/** Slots of {@link PARAMS}. */
export enum Param {
  /** The contact tolerance (distance at which a hit is reported). */
  Tolerance = 0,
  /** The distance a step aims to leave between the shapes (tolerance / 2). */
  Target = 1,
  /** The closing speed below which the closest points count as not approaching. */
  ApproachEps = 2,
  /** The step the current sample allows (the smallest over its pieces). */
  Step = 3,
  /** The rotation terms |ωA|·LA + |ωB|·LB of the closing bound, per frame. */
  Rotation = 4,
  /** The time the result reports. */
  Time = 5,
  /** Numbers in {@link PARAMS}. */
  Words = 6,
}

/** The parameters of the current call (layout: {@link Param}). */
export const PARAMS = new Float64Array(Param.Words);

// --- contact records --------------------------------------------------------------------------------------

/** Slots of a contact record ({@link SAMPLE}, {@link SAVED}, {@link OVERLAP}). */
export enum Contact {
  /** Distance between the shapes (negative: −depth of an overlap). */
  Distance = 0,
  /** Slots 1–3: unit normal from A to B. */
  Normal = 1,
  /** Slots 4–6: the point of A (world). */
  PointA = 4,
  /** Slots 7–9: the point of B (world). */
  PointB = 7,
  /** Numbers in a contact record. */
  Words = 10,
}

/** The contact of the current sample: its hit, or else its closest piece. */
export const SAMPLE = new Float64Array(Contact.Words);
/** The contact of the last sample that was free of contact (where a grazing motion stops). */
export const SAVED = new Float64Array(Contact.Words);
/** The contact of an overlap (the narrowphase contact, `distance` = −depth). */
export const OVERLAP = new Float64Array(Contact.Words);

/** Copies the contact record `src` to `dst`. */
export function copyContact(src: Float64Array, dst: Float64Array): void {
  for (let i = 0; i < Contact.Words; i++) dst[i] = src[i];
}

// --- pieces -----------------------------------------------------------------------------------------------

/** Slots of a piece ({@link PIECE}; the mesh path's pieces in the mesh frame). */
export enum Piece {
  /** Distance (≥ 0: the kernels hand overlaps to the overlap path). */
  Distance = 0,
  /** Bound on the closing rate along the normal, per frame. */
  Closing = 1,
  /** Slots 2–4: unit normal from A to B (in a mesh-frame piece: from the mesh to the shape). */
  Normal = 2,
  /** Slots 5–7: the point of A (in a mesh-frame piece: of the shape). */
  PointA = 5,
  /** Slots 8–10: the point of B (in a mesh-frame piece: of the mesh). */
  PointB = 8,
  /** Numbers in a piece. */
  Words = 11,
}

/** The convex piece being folded into the sample, in world coordinates. */
export const PIECE = new Float64Array(Piece.Words);

/** Writes {@link PIECE} to the contact record `dst` (the closing bound is dropped). */
export function keepPiece(dst: Float64Array): void {
  dst[Contact.Distance] = PIECE[Piece.Distance];
  // normal and points: the same order in both layouts, one slot further on in a piece
  for (let i = Contact.Normal; i < Contact.Words; i++) dst[i] = PIECE[i + 1];
}

// --- shared layouts ---------------------------------------------------------------------------------------

/**
 * Slots of a 15-number OBB (`math/obb.ts`: `OBB_CENTER`, `OBB_AXES`, `OBB_HALF`) as the kernels read the
 * side records' poses, in an enum so that the offsets are literals in the build.
 */
export enum Obb {
  /** Slots 0–2: the centre. */
  Center = 0,
  /** Slots 3–11: the three unit axes, row by row. */
  Axes = 3,
  /** Slots 12–14: the half extents. */
  Half = 12,
}

// --- flags and warm start ---------------------------------------------------------------------------------

/**
 * Flags of the current sample: `hit` (a piece within tolerance and approaching), `overlap` (the shapes
 * overlap: {@link OVERLAP} holds the contact), `found` ({@link SAMPLE} holds a piece); and `planar`,
 * set per call: a 2-D query (overlaps go to the 2-D narrowphase).
 */
export const sample = { hit: false, overlap: false, found: false, planar: false };

/** GJK warm start for box pairs: the last separating direction (zero at the start of a call). */
export const GJK_HINT = new Float64Array(3);
