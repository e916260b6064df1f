"""cellgraph.dataset.vision: image transforms on NumPy HWC arrays and Pillow images (the
names of vision/transforms.py, color.py, geometry.py and augment.py, and the 1.x module paths
`c_transforms` and `py_transforms`)."""
from . import c_transforms, py_transforms, transforms  # noqa: F401
from .augment import *
from .color import *
from .geometry import *
from .transforms import *
