/**
 * A small platformer on Phaser 3 with Matter physics: a Tiled level of 10 000+ tiles turned into
 * static Matter bodies by Phaser's `convertTilemapLayer`, a player, a few hundred props (balls and
 * crates) — and Sieve's collision detection (`@sieve/matter`) installed on Phaser's own matter-js,
 * switchable on a live game, with the timing overlay (`@sieve/overlay`).
 *
 * Keys: arrows or A/D to run, up / W / space to jump, S switches Sieve on and off, O the overlay.
 * Physics runs at a fixed 60 Hz step (`autoUpdate: false`, stepped from `update`), so the simulation
 * does not depend on the frame rate. `?test=1` is the headless test's mode: one step a frame (or
 * `&stepsPerFrame=K`, as a slow frame's catch-up does), the player driven by a script, `&steps=N` stops
 * after N steps, `&sieve=on|off|toggle` (toggle: switched every 50 steps); `?props=N` sets the number of
 * props.
 */
import { installSieve, type SieveDetector } from '@sieve/matter';
import { Overlay } from '@sieve/overlay';
import * as Phaser from 'phaser';
import { type Body, collisionHash, type MatterModule, snapshot, sunkBodies } from './checks.js';
import { buildLevel, groundTop, solidTiles, TILE, type TiledMap } from './level.js';
import { makeTextures } from './textures.js';

const params = new URLSearchParams(location.search);
const TEST = params.get('test') === '1';
const STEP_LIMIT = Number(params.get('steps') ?? Number.POSITIVE_INFINITY);
/** Steps a frame in the test mode: the same steps in fewer frames (a frame is 1/60 s however short). */
const TEST_STEPS_PER_FRAME = Math.max(1, Math.floor(Number(params.get('stepsPerFrame') ?? 1)) || 1);
const SIEVE = params.get('sieve') ?? 'on';
const PROPS = Number(params.get('props') ?? 300);
/** One physics step, ms. */
const DT = 1000 / 60;

/** Phaser's bundled matter-js: the module whose `Detector.collisions` Sieve must answer. */
const PhaserMatter = (Phaser.Physics.Matter as unknown as { Matter: MatterModule }).Matter;

/** What the headless test reads (`window.__tilemap`). */
export interface TilemapHook {
  phaser: string;
  steps: number;
  done: boolean;
  mode: 'sieve' | 'stock';
  path: 'stock' | 'sweep' | 'broadphase';
  switches: number;
  tiles: number;
  props: number;
  bodies: number;
  /** A running hash of every step's collisions (pairs of body ids, in order) and collision events. */
  collisionHash: number;
  /** Collisions found, summed over the steps. */
  collisions: number;
  /** Every body's position, angle and velocity, in world order. */
  snapshot(): number[];
  /** Dynamic bodies below the level, or sunk more than half a tile into the ground. */
  sunk(): number;
  /** The player's position. */
  player(): { x: number; y: number };
  overlay: Overlay;
}

declare global {
  interface Window {
    __tilemap?: TilemapHook;
  }
}

class LevelScene extends Phaser.Scene {
  private map!: TiledMap;
  private player!: Phaser.Physics.Matter.Image;
  private sieve!: SieveDetector;
  private overlay!: Overlay;
  private keys!: Record<
    'left' | 'right' | 'up' | 'a' | 'd' | 'w' | 'space' | 's' | 'o',
    Phaser.Input.Keyboard.Key
  >;
  private hud!: HTMLElement;
  private accumulator = 0;
  private steps = 0;
  private switches = 0;
  private grounded = 0;
  private hash = 0;
  private collisions = 0;
  private phases!: {
    physics: number;
    collision: number;
    render: number;
  };

  constructor() {
    super('level');
  }

  create(): void {
    makeTextures(this);
    this.map = buildLevel();
    this.cache.tilemap.add('level', { format: Phaser.Tilemaps.Formats.TILED_JSON, data: this.map });
    const tilemap = this.make.tilemap({ key: 'level' });
    const tileset = tilemap.addTilesetImage('tiles', 'tiles') as Phaser.Tilemaps.Tileset;
    const layer = tilemap.createLayer('ground', tileset, 0, 0) as Phaser.Tilemaps.TilemapLayer;
    layer.setCollisionByExclusion([-1, 0]);
    // Every colliding tile becomes a static Matter rectangle.
    this.matter.world.convertTilemapLayer(layer);
    const width = tilemap.widthInPixels;
    // Side walls only: whatever falls through the ground falls out of the level (the test looks).
    this.matter.world.setBounds(0, -400, width, tilemap.heightInPixels + 400, 64, true, true, false, false);
    this.addProps(width);
    const startX = 6 * TILE;
    this.player = this.matter.add.image(startX, groundTop(this.map, 6) - 60, 'player', undefined, {
      chamfer: { radius: 6 },
      friction: 0.01,
      frictionAir: 0.02,
      label: 'player',
    });
    this.player.setFixedRotation();
    this.matter.world.on('collisionactive', (event: { pairs: { bodyA: Body; bodyB: Body }[] }) => {
      for (const pair of event.pairs) {
        const self = this.player.body as unknown as Body;
        const other = pair.bodyA === self ? pair.bodyB : pair.bodyB === self ? pair.bodyA : null;
        if (other && other.position.y > self.position.y + 8) this.grounded = 3;
      }
    });
    this.cameras.main.setBounds(0, 0, width, tilemap.heightInPixels);
    this.cameras.main.startFollow(this.player, true, 0.15, 0.15);
    this.cameras.main.setBackgroundColor('#1b2033');

    // What a Phaser game adds (the import and this call): Sieve answers the Detector.collisions of
    // Phaser's own matter-js for this engine, with stock's results bit for bit. `this.matter` names
    // that copy (`Phaser.Physics.Matter.Matter` does too, untyped in Phaser's declarations).
    this.sieve = installSieve(this.matter.world.engine, {
      matter: this.matter,
      mode: SIEVE === 'off' ? 'stock' : 'sieve',
      clock: () => performance.now(),
    });
    this.events.once('shutdown', () => this.sieve.uninstall());

    this.overlay = new Overlay({
      title: `Phaser ${Phaser.VERSION} · Matter tilemap`,
      // The sweep answers every step (no broadphase passed): no broadphase/narrowphase split to show.
      phases: ['physics', 'collision', 'render'],
      counters: ['bodies', 'candidates', 'collisions'],
      toggleKey: null,
      corner: 'top-right',
      segment: this.sieve.mode,
    });
    this.phases = {
      physics: this.overlay.phase('physics'),
      collision: this.overlay.phase('collision'),
      render: this.overlay.phase('render'),
    };
    this.game.events.on(Phaser.Core.Events.PRE_RENDER, () => this.overlay.begin(this.phases.render));
    this.game.events.on(Phaser.Core.Events.POST_RENDER, () => {
      this.overlay.end();
      this.overlay.endFrame();
    });

    const keyboard = this.input.keyboard as Phaser.Input.Keyboard.KeyboardPlugin;
    const K = Phaser.Input.Keyboard.KeyCodes;
    this.keys = keyboard.addKeys({
      left: K.LEFT,
      right: K.RIGHT,
      up: K.UP,
      a: K.A,
      d: K.D,
      w: K.W,
      space: K.SPACE,
      s: K.S,
      o: K.O,
    }) as typeof this.keys;
    this.keys.s.on('down', () => this.toggleSieve());
    this.keys.o.on('down', () => this.overlay.toggle());
    this.hud = document.getElementById('hud') as HTMLElement;
    this.publish();
  }

  /** Balls and crates dropped over the whole level, a few rows above the ground. */
  private addProps(width: number): void {
    for (let i = 0; i < PROPS; i++) {
      const x = 3 * TILE + ((i + 0.5) / PROPS) * (width - 6 * TILE);
      const column = Math.floor(x / TILE);
      const y = groundTop(this.map, column) - 3 * TILE - (i % 4) * TILE;
      const size = 3 - (i % 3); // textures ball1..3, crate1..3: 16, 24, 32 px
      if (i % 2 === 0) {
        this.matter.add.image(x, y, `ball${size}`, undefined, {
          shape: { type: 'circle', radius: 4 + 4 * size },
          restitution: 0.3,
          friction: 0.02,
          label: 'ball',
        });
      } else {
        this.matter.add.image(x, y, `crate${size}`, undefined, { friction: 0.2, label: 'crate' });
      }
    }
  }

  private toggleSieve(): void {
    this.sieve.mode = this.sieve.mode === 'sieve' ? 'stock' : 'sieve';
    this.switches++;
    this.overlay.beginSegment(this.sieve.mode);
  }

  override update(_time: number, delta: number): void {
    if (this.steps >= STEP_LIMIT) return;
    // Fixed steps: one a frame in the test (or `stepsPerFrame`), else as many as the elapsed time calls
    // for (at most 4).
    let n = TEST_STEPS_PER_FRAME;
    if (!TEST) {
      this.accumulator = Math.min(this.accumulator + delta, 4 * DT);
      n = Math.floor(this.accumulator / DT);
      this.accumulator -= n * DT;
    }
    for (let k = 0; k < n && this.steps < STEP_LIMIT; k++) this.step();
    this.publish();
  }

  private step(): void {
    if (TEST && SIEVE === 'toggle' && this.steps > 0 && this.steps % 50 === 0) this.toggleSieve();
    this.control();
    const o = this.overlay;
    o.begin(this.phases.physics);
    this.matter.world.step(DT);
    o.end();
    const s = this.sieve.stats;
    if (!Number.isNaN(s.detectorMs)) o.record(this.phases.collision, s.detectorMs);
    o.count('bodies', s.bodies);
    if (!Number.isNaN(s.candidatePairs)) o.count('candidates', s.candidatePairs);
    o.count('collisions', s.collisions);
    const engine = this.matter.world.engine as unknown as Parameters<typeof collisionHash>[1];
    this.hash = collisionHash(this.hash, engine);
    this.collisions += s.collisions;
    this.steps++;
    if (this.grounded > 0) this.grounded--;
  }

  /** Keys, or in the test a script that depends on the step count only. */
  private control(): void {
    let move = 0;
    let jump = false;
    if (TEST) {
      move = this.steps % 400 < 300 ? 1 : -1;
      jump = this.steps % 70 === 30;
    } else {
      const k = this.keys;
      move = (k.right.isDown || k.d.isDown ? 1 : 0) - (k.left.isDown || k.a.isDown ? 1 : 0);
      jump = k.up.isDown || k.w.isDown || k.space.isDown;
    }
    const body = this.player.body as unknown as Body & { velocity: { x: number; y: number } };
    this.player.setVelocityX(move * 4.5);
    if (jump && this.grounded > 0) {
      this.player.setVelocityY(-10);
      this.grounded = 0;
    } else if (body.velocity.y > 14) this.player.setVelocityY(14);
  }

  private publish(): void {
    const world = this.matter.world;
    const bodies = (world.engine as unknown as { detector: { bodies: unknown[] } }).detector.bodies.length;
    const s = this.sieve.stats;
    const path = s.mode === 'stock' ? 'stock' : s.path;
    this.hud.innerHTML =
      `<span class="${s.mode}">${s.mode === 'sieve' ? 'Sieve' : 'stock matter'}</span> · ${path} · ` +
      `${bodies} bodies (${solidTiles(this.map)} tiles) · step ${this.steps}<br>` +
      '<small>←/→ or A/D run · ↑/W/space jump · S Sieve on/off · O overlay</small>';
    const engine = world.engine as unknown as Parameters<typeof snapshot>[1];
    const map = this.map;
    window.__tilemap = {
      phaser: Phaser.VERSION,
      steps: this.steps,
      done: this.steps >= STEP_LIMIT,
      mode: this.sieve.mode,
      path,
      switches: this.switches,
      tiles: solidTiles(map),
      props: PROPS,
      bodies,
      collisionHash: this.hash,
      collisions: this.collisions,
      snapshot: () => snapshot(PhaserMatter, engine),
      sunk: () => sunkBodies(PhaserMatter, engine, (x) => groundTop(map, x), map.height * TILE),
      player: () => ({ x: this.player.x, y: this.player.y }),
      overlay: this.overlay,
    };
  }
}

new Phaser.Game({
  type: Phaser.AUTO,
  parent: 'game',
  scale: { mode: Phaser.Scale.RESIZE, width: window.innerWidth, height: window.innerHeight },
  backgroundColor: '#1b2033',
  physics: {
    default: 'matter',
    matter: { gravity: { x: 0, y: 1 }, autoUpdate: false, enableSleeping: false, debug: false },
  },
  scene: LevelScene,
});
