"""What a rendered tray frame shows, as plain data: the dice, the table, the light, the camera.

A :class:`TrayScene` is everything needed to draw one frame; :func:`vision.render.render_tray`
turns it into pixels and the truth for every die. Nothing here draws or draws randomly:
:mod:`vision.render.generate` makes random scenes, grouped into named *families* of
conditions so that a benchmark can hold whole families out.

Units: table coordinates are pixels of the frame at table level under an untilted camera
(``die_size`` pixels per die edge), heights are in the same pixels; angles in degrees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from rules.dice import HABA_LAYOUTS, Color

BGR = tuple[float, float, float]

CREAM: BGR = (178, 222, 238)
"""HABA pips: light cream (the reference notes: cream / wood coloured)."""
PAINT: dict[Color, BGR] = {
    Color.RED: (48, 42, 196),
    Color.GREEN: (64, 150, 46),
    Color.BLUE: (176, 92, 28),
}
"""Typical HABA paint colours, for scenes that do not choose their own."""


@dataclass(frozen=True)
class DieLook:
    """How a set of dice is made.

    ``solid``: each face painted all over. ``inset``: bare wood with a painted square on
    each face, ``border`` (a fraction of the edge) of wood showing around it. Both may have
    wood grain showing through (``grain``), worn paint at edges and corners (``wear``),
    rounded edges of bare wood (``wood_edges``: a light band around every face), engraved
    pips (a shadowed rim) and a glossy finish (``gloss``: specular highlights).
    """

    style: str = "solid"
    paint: dict[Color, BGR] = field(default_factory=lambda: dict(PAINT))
    pip_bgr: BGR = CREAM
    wood_bgr: BGR = (150, 196, 226)
    border: float = 0.0
    grain: float = 0.0
    wear: float = 0.0
    engraved: bool = False
    gloss: float = 0.0
    pip_radius: float = 0.085
    pip_spacing: float = 0.27
    bevel: float = 0.07
    wood_edges: bool = False


@dataclass(frozen=True)
class DieSpec:
    """One die: top value, HABA pair, where it lies on the table and how.

    ``angle`` turns it about the vertical; ``lift`` raises it (die edges; a die in the air
    or resting on another's edge); ``lean`` tips it by that many degrees towards ``lean_dir``
    (a die leaning on a tray wall or on another die, tipped towards it, or propped against
    it, tipped away). ``tumble`` (motion frames only) is an
    arbitrary extra rotation (three angles).
    """

    value: int
    pair: str
    x: float
    y: float
    angle: float = 0.0
    lift: float = 0.0
    lean: float = 0.0
    lean_dir: float = 0.0
    tumble: tuple[float, float, float] | None = None

    @property
    def color(self) -> Color:
        return HABA_LAYOUTS[self.pair][self.value]


@dataclass(frozen=True)
class Table:
    """The surface the dice lie on.

    ``kind``: ``plain`` (a smooth neutral or tinted surface), ``wood`` (grain and plank
    seams), ``felt``, ``card`` (tinted paper), ``cloth`` (a woven pattern of two colours),
    ``print`` (a printed oilcloth or play mat), ``woven`` (a gingham or tartan cloth),
    ``stone`` (marble, granite or terrazzo) or ``tray`` (a felt or wooden tray with walls,
    on another surface). ``bgr`` is the main
    colour, ``second_bgr`` the pattern's (cloth stripes, stone veins, tray floor), ``scale``
    the pattern size in die edges, ``angle`` the grain or weave direction.
    """

    kind: str = "plain"
    bgr: BGR = (200, 200, 198)
    second_bgr: BGR = (120, 120, 120)
    scale: float = 1.0
    angle: float = 0.0
    gloss: float = 0.0
    tray: tuple[float, float, float, float] | None = None  # x0, y0, x1, y1 (table px)
    wall: float = 0.0  # tray wall height in die edges


@dataclass(frozen=True)
class Light:
    """The room's light.

    A lamp at ``azimuth``/``elevation`` (degrees; 90 = straight above) lights the faces and
    casts shadows whose edge is as soft as ``softness`` (die edges of blur; a window or a
    big lamp is soft, a bare bulb hard) and as dark as ``shadow``. ``kelvin`` is the colour
    temperature, ``tint`` a green-magenta shift (-1..1). ``gradient`` darkens one side of the
    tray, ``hotspot`` adds a bright reflection on glossy surfaces.
    """

    azimuth: float = 135.0
    elevation: float = 70.0
    ambient: float = 0.55
    kelvin: float = 5500.0
    tint: float = 0.0
    shadow: float = 0.35
    softness: float = 0.25
    gradient: float = 0.0
    gradient_angle: float = 0.0
    hotspot: float = 0.0
    hotspot_at: tuple[float, float] = (0.5, 0.5)  # fraction of the frame
    arm_shadow: float = 0.0


@dataclass(frozen=True)
class Camera:
    """The camera over the tray.

    ``height`` in die edges above the table (``inf``: no perspective); ``tilt`` degrees away
    from straight down towards ``tilt_dir``; ``distortion`` the radial lens coefficient
    (negative: barrel); ``white_balance`` how much of the light's colour the camera takes
    out (1: all, 0: none); ``cast`` extra B, G, R gains of a wrong white balance;
    ``exposure`` a gain (1: right); ``vignette`` darkening at the corners; ``defocus`` and
    ``motion_blur`` in die edges; ``noise`` in grey levels; ``jpeg_quality`` or None.
    """

    height: float = math.inf
    tilt: float = 0.0
    tilt_dir: float = 0.0
    distortion: float = 0.0
    white_balance: float = 1.0
    cast: BGR = (1.0, 1.0, 1.0)
    exposure: float = 1.0
    vignette: float = 0.0
    defocus: float = 0.0
    motion_blur: float = 0.0
    noise: float = 2.0
    jpeg_quality: int | None = None


@dataclass(frozen=True)
class Distractor:
    """Something that is not a die: ``coin``, ``pencil``, ``card``, ``token``, ``hand`` or
    ``citizen`` (a citizen card of the box with its requirement's dice printed on it)."""

    kind: str
    x: float
    y: float
    angle: float = 0.0
    scale: float = 1.0  # relative to the die size
    bgr: BGR = (180, 180, 180)


@dataclass(frozen=True)
class TrayScene:
    """A frame to render: dice, objects beside them, table, light and camera."""

    dice: tuple[DieSpec, ...]
    die_size: float = 70.0  # px: a die edge at table level under an untilted camera
    width: int = 1280
    height: int = 960
    look: DieLook = field(default_factory=DieLook)
    table: Table = field(default_factory=Table)
    light: Light = field(default_factory=Light)
    camera: Camera = field(default_factory=Camera)
    distractors: tuple[Distractor, ...] = ()
    family: tuple[tuple[str, str], ...] = ()  # (axis, family) names, for per-condition tables


@dataclass(frozen=True)
class TruthDie:
    """Where a rendered die's top face appears and what it shows.

    ``outline`` are the top face's corners in the frame, ``size`` its mean edge in pixels.
    ``visible``: the whole top face is inside the frame. ``leaning``: the die is tipped
    (no face lies flat), so a reader may rightly call it unsure.
    """

    value: int
    color: Color
    center: tuple[float, float]
    outline: tuple[tuple[float, float], ...]
    size: float
    visible: bool = True
    leaning: bool = False
