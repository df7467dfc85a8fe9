/**
 * Module scratch shared by the stages of the bullet sweep (one world is swept at a time and nothing is
 * re-entrant), with named layouts for the records that hold more than one thing.
 */
import { createMotion, createTimeOfImpactResult } from '@sieve/core';

/** The bullet's motion over the step, and the motion of the body it is tested against. */
export const MA = createMotion();
export const MB = createMotion();
/** The bullet's poses before (P0, Q0) and after (P1, Q1) the step. */
export const P0 = new Float64Array(3);
export const Q0 = new Float64Array(4);
export const P1 = new Float64Array(3);
export const Q1 = new Float64Array(4);
/** The swept box of the current bullet: min xyz, max xyz. */
export const SWEPT = new Float64Array(6);
/** The last time of impact computed. */
export const OUT = createTimeOfImpactResult();

/** The earliest hit of the current bullet so far, laid out by the `HIT_*` offsets below. */
export const HIT = new Float64Array(10);
/** `HIT` offset: time of impact as a fraction of the step (1; +∞ while none). */
export const HIT_T = 0;
/** `HIT` offset: unit contact normal, from the bullet to the other body (3). */
export const HIT_NORMAL = 1;
/** `HIT` offset: contact point (3). */
export const HIT_POINT = 4;
/** `HIT` offset: distance between the shapes at the hit (1). */
export const HIT_DISTANCE = 7;
/** `HIT` offset: 1 when the bullet is to be pushed into the other body by the gap plus the slop (1). */
export const HIT_PUSH = 8;
/** `HIT` offset: 1 when the hit is the bullet's core sphere's (1). */
export const HIT_CORE = 9;
/** The motion of the earliest hit's other body. */
export const HIT_MOTION = createMotion();
