/**
 * The pixi.js view of a {@link Game}: a letterboxed world container scaled to the window, one Graphics per
 * asteroid (outline drawn once, then only moved), the ship with its flame, one Graphics redrawn per frame
 * for bullets and sparks, a ParticleContainer for the thousands of debris bodies (one quad each, one
 * draw call for all of them), and the static level's rubble drawn once into one Graphics when it is laid.
 * The playfield keeps clear of the screen's edges the page reserves (the HUD above, the buttons below,
 * the timing overlay at the right), so no text is ever drawn over the game.
 */
import {
  type Application,
  Container,
  Graphics,
  Particle,
  ParticleContainer,
  Rectangle,
  type Texture,
} from 'pixi.js';
import { type Game, rubbleLayout, WORLD_H, WORLD_W } from './game.js';
import type { GameState } from './state.js';

const ASTEROID_COLOR = 0xc5cae9;
const SHIP_COLOR = 0x80deea;
const BULLET_COLOR = 0xfff59d;
const SPARK_COLOR = 0xffab40;
const DEBRIS_COLOR = 0x7986cb;
const RUBBLE_COLOR = 0x5d6a8a;

/** CSS pixels at each edge of the screen that the playfield keeps clear of. */
export interface Reserved {
  top: number;
  right: number;
  bottom: number;
}

/** Draws the game state with pixi.js. */
export class View {
  readonly world = new Container();
  private readonly field = new Graphics();
  private readonly ship = new Container();
  private readonly flame = new Graphics();
  private readonly shield = new Graphics();
  private readonly shots = new Graphics();
  private readonly asteroidLayer = new Container();
  private readonly asteroidViews = new Map<number, Graphics>();
  private readonly debrisLayer: ParticleContainer;
  private readonly debrisTexture: Texture;
  private readonly particles: Particle[] = [];
  private readonly rubble = new Graphics();
  private rubbleShown = 0;

  /** The playfield's rectangle on the screen, in CSS pixels (updated every frame). */
  readonly playfield = { x: 0, y: 0, width: 0, height: 0 };

  /**
   * @param reserved - CSS pixels at the top (HUD), right (timing overlay) and bottom (buttons) edges of
   *   the screen kept free of the playfield, read every frame so the playfield grows back when the
   *   overlay is hidden.
   */
  constructor(
    private readonly app: Application,
    game: { readonly shipOutline: number[] },
    private readonly reserved: () => Reserved = () => ({ top: 0, right: 0, bottom: 0 }),
  ) {
    this.field.rect(0, 0, WORLD_W, WORLD_H).fill({ color: 0x070914 }).stroke({ width: 2, color: 0x283593 });
    // A faint star field, drawn once.
    for (let i = 0; i < 140; i++) {
      const x = (i * 7919) % WORLD_W;
      const y = (i * 104729) % WORLD_H;
      this.field
        .circle(x, y, i % 7 === 0 ? 1.4 : 0.8)
        .fill({ color: 0xffffff, alpha: 0.25 + (i % 5) * 0.08 });
    }
    this.world.addChild(this.field, this.rubble);

    const dot = new Graphics().circle(4, 4, 3.2).fill(0xffffff);
    this.debrisTexture = app.renderer.generateTexture({ target: dot, resolution: 2 });
    dot.destroy();
    this.debrisLayer = new ParticleContainer({
      texture: this.debrisTexture,
      dynamicProperties: { position: true, rotation: false, color: false, vertex: false, uvs: false },
    });
    this.debrisLayer.boundsArea = new Rectangle(0, 0, WORLD_W, WORLD_H);
    this.world.addChild(this.debrisLayer, this.asteroidLayer, this.shots);

    const hull = new Graphics();
    const o = game.shipOutline;
    hull.poly(o, true).fill({ color: 0x0d1b2a }).stroke({ width: 2, color: SHIP_COLOR, join: 'round' });
    // The flame behind the ship's base (the outline's lowest y), shown while thrusting.
    let base = Number.NEGATIVE_INFINITY;
    for (let i = 1; i < o.length; i += 2) base = Math.max(base, o[i]);
    this.flame
      .poly([-6, base + 1, 0, base + 14, 6, base + 1], true)
      .fill({ color: 0xff7043 })
      .stroke({ width: 1, color: 0xffcc80 });
    this.shield.circle(0, 0, 26).stroke({ width: 1.5, color: SHIP_COLOR, alpha: 0.6 });
    this.ship.addChild(this.shield, this.flame, hull);
    this.world.addChild(this.ship);
    // Nothing is drawn outside the field (a body wrapping around an edge): the HUD and the buttons stay clear.
    const clip = new Graphics().rect(0, 0, WORLD_W, WORLD_H).fill({ color: 0xffffff });
    this.world.addChild(clip);
    this.world.mask = clip;
    app.stage.addChild(this.world);
  }

  /** Scales and centres the world in the part of the screen the reserved edges leave. */
  private fit(): void {
    const { width: screenW, height: screenH } = this.app.screen;
    const r = this.reserved();
    // Never under the HUD, the buttons or the overlay, however little room they leave.
    const right = Math.min(r.right, screenW - 1);
    const top = Math.min(r.top, screenH - 1);
    const bottom = Math.min(r.bottom, screenH - top - 1);
    const width = screenW - right;
    const height = screenH - top - bottom;
    const s = Math.min(width / WORLD_W, height / WORLD_H);
    const x = (width - WORLD_W * s) / 2;
    const y = top + (height - WORLD_H * s) / 2;
    this.world.scale.set(s);
    this.world.position.set(x, y);
    const p = this.playfield;
    p.x = x;
    p.y = y;
    p.width = WORLD_W * s;
    p.height = WORLD_H * s;
  }

  /** Brings every display object in line with the game state (a {@link Game}, or a snapshot of one). */
  sync(game: GameState): void {
    this.fit();
    const ship = game.ship;
    this.ship.visible = game.shipAlive;
    // The spawn shield: a ring, blinking in its last second.
    this.shield.visible =
      game.invulnerable > 60 || (game.invulnerable > 0 && ((game.invulnerable / 6) | 0) % 2 === 0);
    this.ship.position.set(ship.position.x, ship.position.y);
    this.ship.rotation = ship.angle;
    this.flame.visible = game.thrusting && (game.steps & 2) === 0;

    // The static level: drawn once when laid, cleared when taken away.
    if (game.rubbleCount !== this.rubbleShown) {
      this.rubbleShown = game.rubbleCount;
      this.rubble.clear();
      if (game.rubbleCount > 0) {
        const at = rubbleLayout();
        for (let k = 0; k < at.length; k += 2) this.rubble.rect(at[k] - 1.1, at[k + 1] - 1.1, 2.2, 2.2);
        this.rubble.fill({ color: RUBBLE_COLOR });
      }
    }

    // Asteroids: create views for new ones, drop views of destroyed ones, move the rest.
    for (const [id, a] of game.asteroids) {
      let g = this.asteroidViews.get(id);
      if (!g) {
        g = new Graphics();
        g.poly(a.outline, true)
          .fill({ color: 0x1a1f3a })
          .stroke({ width: a.size === 3 ? 2.5 : 2, color: ASTEROID_COLOR, join: 'round' });
        this.asteroidViews.set(id, g);
        this.asteroidLayer.addChild(g);
      }
      g.position.set(a.body.position.x, a.body.position.y);
      g.rotation = a.body.angle;
    }
    if (this.asteroidViews.size !== game.asteroids.size) {
      for (const [id, g] of this.asteroidViews) {
        if (!game.asteroids.has(id)) {
          g.destroy();
          this.asteroidViews.delete(id);
        }
      }
    }

    // Bullets and sparks: few, redrawn every frame into one Graphics.
    const shots = this.shots;
    shots.clear();
    for (const b of game.bullets.values()) shots.circle(b.body.position.x, b.body.position.y, 2.6);
    if (game.bullets.size > 0) shots.fill({ color: BULLET_COLOR });
    for (const s of game.sparks) shots.rect(s.x - 1.2, s.y - 1.2, 2.4, 2.4);
    if (game.sparks.length > 0) shots.fill({ color: SPARK_COLOR });

    // Debris: one particle per body, matched by index.
    const debris = game.debris;
    const particles = this.particles;
    if (particles.length !== debris.length) {
      if (particles.length > debris.length) {
        this.debrisLayer.removeParticles(debris.length, particles.length);
        particles.length = debris.length;
      } else {
        const added: Particle[] = [];
        for (let i = particles.length; i < debris.length; i++) {
          const p = new Particle({
            texture: this.debrisTexture,
            anchorX: 0.5,
            anchorY: 0.5,
            tint: DEBRIS_COLOR,
          });
          const r = (debris[i].bounds.max.x - debris[i].bounds.min.x) / 2;
          p.scaleX = p.scaleY = r / 3.2;
          added.push(p);
        }
        particles.push(...added);
        this.debrisLayer.addParticle(...added);
      }
    }
    for (let i = 0; i < debris.length; i++) {
      const p = particles[i];
      const pos = debris[i].position;
      p.x = pos.x;
      p.y = pos.y;
    }
  }
}
