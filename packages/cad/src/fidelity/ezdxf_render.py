"""Render one layout of a DXF with ezdxf's drawing add-on (matplotlib backend) to a PNG.

The independent reference of ezdxf-reference.test.ts: the test passes the exact window (drawing units) and
pixel size of our own render, so both images can be compared pixel for pixel. Light background (white paper),
ACI 7 drawn black, as our light renders do.

usage: ezdxf_render.py <in.dxf> <layout|Model> <minX> <minY> <maxX> <maxY> <width px> <height px> <out.png> [layers-on]

`layers-on`: every layer switched on first, as our reader does for DWG (LibreDWG writes nearly every layer of
an R13-2018 DWG with a negative colour, "off", that the file does not mean: see dwg/dwg-reader.ts).
"""
import logging
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import ezdxf  # noqa: E402
from ezdxf import recover  # noqa: E402
from ezdxf.addons.drawing import Frontend, RenderContext  # noqa: E402
from ezdxf.addons.drawing.config import Configuration  # noqa: E402
from ezdxf.addons.drawing.matplotlib import MatplotlibBackend  # noqa: E402
from ezdxf.addons.drawing.properties import LayoutProperties  # noqa: E402


class TolerantFrontend(Frontend):
    """ezdxf 0.18 stops the whole drawing at an entity it cannot lay out (seen: "Internal error - not enough
    space!?" for an MTEXT); here that entity alone is left out and counted on stderr."""

    failed = 0

    def draw_entity(self, entity, properties):
        try:
            super().draw_entity(entity, properties)
        except Exception as e:  # noqa: BLE001 - any ezdxf failure of one entity
            TolerantFrontend.failed += 1
            print(f"ezdxf could not draw {entity.dxftype()}: {e}", file=sys.stderr)


def read(src: str):
    try:
        return recover.readfile(src)[0]  # recover: tolerate the small flaws real files have
    except Exception:  # noqa: BLE001 - recover reads no binary DXF: the plain reader does
        return ezdxf.readfile(src)


def main() -> int:
    logging.disable(logging.WARNING)  # matplotlib's font fallbacks are not errors
    src, layout_name = sys.argv[1], sys.argv[2]
    x0, y0, x1, y1 = (float(v) for v in sys.argv[3:7])
    width, height, out = int(sys.argv[7]), int(sys.argv[8]), sys.argv[9]
    doc = read(src)
    if sys.argv[10:11] == ["layers-on"]:
        for layer in doc.layers:
            layer.on()
    layout = doc.modelspace() if layout_name == "Model" else doc.layouts.get(layout_name)
    dpi = 100
    fig = plt.figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    ax = fig.add_axes([0, 0, 1, 1])
    ctx = RenderContext(doc)
    props = LayoutProperties.from_layout(layout)
    props.set_colors("#ffffff")  # white paper: ACI 7 becomes black
    # XLINE and RAY are infinite, as AutoCAD draws them; ezdxf draws them 20 drawing units long by default (a dot at
    # the scale of most drawings): long enough here to cross the window from a start up to 50 windows away
    config = Configuration.defaults().with_changes(infinite_line_length=100 * ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    TolerantFrontend(ctx, MatplotlibBackend(ax), config).draw_layout(layout, finalize=True, layout_properties=props)
    # finalize sets its own margins and aspect; the window is ours, exactly
    fig.set_size_inches(width / dpi, height / dpi)
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_aspect("auto")
    ax.set_position([0, 0, 1, 1])
    ax.axis("off")
    fig.savefig(out, dpi=dpi, facecolor="#ffffff")
    plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
