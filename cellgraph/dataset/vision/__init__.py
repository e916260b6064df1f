"""cellgraph.dataset.vision: image transforms on NumPy HWC arrays and Pillow images (the
names of vision/transforms.py, color.py, geometry.py, augment.py, auto_augment.py, perspective.py and bbox.py, and the 1.x
module paths `c_transforms` and `py_transforms`)."""
from . import c_transforms, py_transforms, transforms, utils  # noqa: F401
from .augment import *
from .auto_augment import *
from .bbox import *
from .color import *
from .geometry import *
from .levels import *
from .mix import *
from .perspective import *
from .pixels import *
from .transforms import *
from .utils import (  # noqa: F401
    ImageReadMode,
    encode_jpeg,
    encode_png,
    get_image_num_channels,
    get_image_size,
    read_file,
    read_image,
    write_file,
    write_jpeg,
    write_png,
)
from .video import DecodeVideo, read_video, read_video_timestamps  # noqa: F401
