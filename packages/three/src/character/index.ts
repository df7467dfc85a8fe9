/**
 * The character collider: `CharacterController` (a capsule moved through level meshes by collide and
 * slide, with steps, slopes, snapping and moving platforms) and the result of a move.
 */
export { CharacterController, type CharacterControllerOptions } from './CharacterController.js';
export { CharacterMove, CollisionKind, MAX_COLLISIONS } from './result.js';
