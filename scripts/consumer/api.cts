/** The CommonJS view (`require` condition, `.d.cts` declarations) of the same API, type-checked only. */
import core = require('@sieve/core');
import overlay = require('@sieve/overlay');
import cannon = require('@sieve/cannon');
import matter = require('@sieve/matter');
import Matter = require('matter-js');
import CANNON = require('cannon-es');

const bp = new core.SweepAndPrune({ dimensions: 2 });
bp.insert([0, 0, 1, 1]);
bp.update();
const bvh = new core.MeshBVH(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]));
const copy: core.MeshBVH = core.MeshBVH.deserialize(bvh.serialize(), new Float32Array(9));
const rec = new overlay.FrameRecorder({ phases: ['step'] });
rec.endFrame();
const world = new CANNON.World();
cannon.installSieve(world);
const detector: matter.SieveDetector = matter.installSieve(Matter.Engine.create(), { matter: Matter });

export = { pairs: bp.pairs(), copy, frames: rec.frameCount, mode: detector.mode };
