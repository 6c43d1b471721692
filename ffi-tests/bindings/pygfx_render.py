"""pygfx, a rendering engine built on wgpu-py, draws on wgpu-shim.

pygfx builds its render pipelines through wgpu-py with wgpu-py's default
chains, and its shaders pass integer values between stages without
@interpolate(flat) (as wgpu-native v29 accepts). This renders a scene
offscreen (a lit mesh, points, a thick line, text and a background) and
compares it with reference/pygfx_scene.png, rendered by wgpu-native
v29.0.1.1 on lavapipe (run this script with --write-reference and
WGPU_LIB_PATH naming wgpu-native's library to make it again). Only
WGPU_LIB_PATH selects the library.

Exit 0: passed; 1: failed; 77: skipped (pygfx cannot be installed here; the
reason is printed; under CI=true that is a failure: venv_util.py).
"""

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REFERENCE = HERE / "reference" / "pygfx_scene.png"
REQUIREMENTS = ["wgpu==0.32.0", "pygfx==0.17.0"]
WIDTH, HEIGHT = 160, 120


def render():
    """The scene's RGBA bytes, rendered offscreen."""
    import numpy as np
    import pygfx as gfx
    from rendercanvas.offscreen import RenderCanvas

    canvas = RenderCanvas(size=(WIDTH, HEIGHT), pixel_ratio=1)
    renderer = gfx.renderers.WgpuRenderer(canvas)
    scene = gfx.Scene()
    scene.add(gfx.Background.from_color("#203040"))
    cube = gfx.Mesh(gfx.box_geometry(1, 1, 1), gfx.MeshPhongMaterial(color="#cc6622"))
    cube.local.rotation = (0.3, 0.5, 0.1, 0.8)
    light = gfx.DirectionalLight()
    light.local.position = (1, 2, 3)
    scene.add(cube, gfx.AmbientLight(), light)
    positions = np.array([[-1.2, 0.8, 0], [1.2, 0.8, 0], [0, -1, 0]], np.float32)
    scene.add(gfx.Points(gfx.Geometry(positions=positions), gfx.PointsMaterial(size=10, color="#00ff88")))
    line = np.array([[-1.5, -0.8, 0], [1.5, -0.6, 0]], np.float32)
    scene.add(gfx.Line(gfx.Geometry(positions=line), gfx.LineMaterial(thickness=4, color="#ffff00")))
    text = gfx.Text(text="wgpu", font_size=24, screen_space=True, material=gfx.TextMaterial(color="#ffffff"))
    text.local.position = (0, 1.2, 0)
    scene.add(text)
    camera = gfx.PerspectiveCamera(60, WIDTH / HEIGHT)
    camera.local.position = (0, 0, 4)
    canvas.request_draw(lambda: renderer.render(scene, camera))
    image = np.asarray(canvas.draw())
    assert image.shape == (HEIGHT, WIDTH, 4), f"the offscreen canvas gave no image ({image.shape})"
    return image.astype(np.uint8).tobytes()


def main() -> int:
    sys.path.insert(0, str(HERE))
    import venv_util

    venv_util.ensure(REQUIREMENTS, "pygfx", "WGPU_PYGFX_VENV", HERE / ".pygfx-venv")
    import png_rgba

    write_reference = "--write-reference" in sys.argv
    lib = os.environ.get("WGPU_LIB_PATH", "")
    if not write_reference:
        assert "wgpu_shim" in lib, f"WGPU_LIB_PATH must name libwgpu_shim, not {lib!r}"
    image = render()
    if write_reference:
        REFERENCE.parent.mkdir(exist_ok=True)
        png_rgba.write(REFERENCE, WIDTH, HEIGHT, image)
        print(f"wrote {REFERENCE}")
        return 0
    width, height, reference = png_rgba.read(REFERENCE)
    assert (width, height) == (WIDTH, HEIGHT)
    differ = png_rgba.compare(image, reference)
    background = image[:4]
    drawn = sum(1 for i in range(0, len(image), 4) if image[i : i + 4] != background)
    print(f"{drawn} pixels drawn over the background; {differ:.2%} differ from {REFERENCE.name}")
    ok = differ <= 0.01 and drawn > WIDTH * HEIGHT // 20
    print(f"pygfx: {int(ok)} passed, {int(not ok)} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
