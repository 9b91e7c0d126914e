"""The pinhole camera over the table: projection, its inverse on the table plane, and lens
distortion, for the renderer.

World coordinates: x right and y down as in the frame, z up, in table pixels (see
:mod:`vision.render.scene`). The camera sits ``height`` die edges above the frame centre
and looks down, tilted by ``tilt`` degrees; its focal length is chosen so that a point on
the table under an untilted camera keeps its table coordinates in the frame.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.render.scene import TrayScene

FAR = 1e5
"""Camera height (die edges) standing in for ``inf``: no visible perspective."""


def _rotation(axis: np.ndarray, degrees: float) -> np.ndarray:
    vec = np.asarray(axis, np.float64) * math.radians(degrees)
    rot, _ = cv2.Rodrigues(vec)
    return rot


class Projector:
    """World points to frame pixels for one scene's camera."""

    def __init__(self, scene: TrayScene) -> None:
        cam = scene.camera
        height = cam.height if math.isfinite(cam.height) else FAR
        self.width, self.height = scene.width, scene.height
        self.centre = np.array([scene.width / 2.0, scene.height / 2.0])
        self.f = height * scene.die_size
        self.position = np.array([scene.width / 2.0, scene.height / 2.0, self.f])
        down = np.diag([1.0, 1.0, -1.0])
        d = math.radians(cam.tilt_dir)
        tilt = _rotation(np.array([-math.sin(d), math.cos(d), 0.0]), cam.tilt)
        self.rotation = tilt @ down
        self.k1 = cam.distortion
        self.zoom = 1.0 / (1.0 + self.k1) if self.k1 < 0.0 else 1.0
        """A barrel lens's frame is zoomed so that its corners see the corners of the
        undistorted frame: every pixel of the frame then shows something drawn. (Without it
        the frame's edges showed the undistorted frame mirrored, dice and all, where a real
        lens sees more of the table.)"""
        self.half_diagonal = math.hypot(scene.width, scene.height) / 2.0
        k = np.array([[self.f, 0, self.centre[0]], [0, self.f, self.centre[1]], [0, 0, 1.0]])
        m = np.array([[1.0, 0, -self.position[0]], [0, 1.0, -self.position[1]],
                      [0, 0, -self.position[2]]])
        self.table_to_image = k @ self.rotation @ m
        """Homography from the table plane (z = 0) to the undistorted frame."""
        self.image_to_table = np.linalg.inv(self.table_to_image)

    @property
    def eye(self) -> np.ndarray:
        return self.position

    def project(self, points: np.ndarray) -> np.ndarray:
        """(n, 3) world points to (n, 2) undistorted frame pixels."""
        pc = (np.asarray(points, np.float64) - self.position) @ self.rotation.T
        z = np.maximum(pc[:, 2], 1e-6)
        out: np.ndarray = self.f * pc[:, :2] / z[:, None] + self.centre
        return out

    def scale_at(self, x: float, y: float, z: float = 0.0) -> float:
        """Frame pixels per table pixel at a world point (perspective shrinks far things)."""
        a = self.project(np.array([[x, y, z], [x + 1.0, y, z], [x, y + 1.0, z]]))
        (ux, uy), (vx, vy) = a[1] - a[0], a[2] - a[0]
        return float(math.sqrt(abs(ux * vy - uy * vx)))

    def to_table(self, uv: np.ndarray) -> np.ndarray:
        """(n, 2) undistorted frame pixels to (n, 2) points of the table plane."""
        pts = np.asarray(uv, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.image_to_table).reshape(-1, 2)

    def distort(self, uv: np.ndarray) -> np.ndarray:
        """Where the lens puts undistorted frame points (radial, ``k1``, and :attr:`zoom`)."""
        uv = np.asarray(uv, np.float64)
        if self.k1 == 0.0:
            return uv
        d = uv - self.centre
        r2 = (d * d).sum(axis=-1, keepdims=True) / self.half_diagonal ** 2
        out: np.ndarray = self.centre + d * (1.0 + self.k1 * r2) * self.zoom
        return out

    def distortion_maps(self) -> tuple[np.ndarray, np.ndarray] | None:
        """``cv2.remap`` maps that apply the lens to an undistorted frame (None: no lens)."""
        if self.k1 == 0.0:
            return None
        ys, xs = np.mgrid[0:self.height, 0:self.width].astype(np.float32)
        q = np.stack([xs, ys], axis=-1) - self.centre.astype(np.float32)
        p = q.copy()
        scale = np.float32(self.k1 / self.half_diagonal ** 2)
        zoom = np.float32(self.zoom)
        for _ in range(6):  # p (undistorted) such that p * (1 + k1 r(p)^2) * zoom = q
            r2 = (p * p).sum(axis=-1, keepdims=True)
            p = q / ((1.0 + scale * r2) * zoom)
        p += self.centre.astype(np.float32)
        return p[..., 0], p[..., 1]
