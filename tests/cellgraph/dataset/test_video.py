"""read_video, read_video_timestamps and DecodeVideo (the video extra: PyAV). The expected
values are MindSpore 2.10's read of tests/data/video/tiny.avi (tools/oracle/make_video_fixture.py:
6 MPEG-4 frames at 10 fps, 16 kHz stereo MP2 audio). Frames and audio points kept, audio
samples and timestamps are exact; the frames' YUV -> RGB conversion is that of PyAV's FFmpeg
build (its SIMD converter), within 2% of MindSpore's pixel sums (MindSpore's own tests allow 5%)."""
import os

import numpy as np
import pytest

pytest.importorskip("av")

from cellgraph.dataset import vision

TINY = os.path.join(os.path.dirname(__file__), "..", "..", "data", "video", "tiny.avi")


@pytest.mark.parametrize("kwargs, frames, frame_sum, points, audio_sum, first_points", [
    ({}, 6, 395736, 10368, -11776, [[0, 0, 0], [0, 0, 0]]),
    ({"start_pts": 2, "end_pts": 3}, 2, 135960, 3456, -19943,
     [[-7392, -6756, -5919], [-3697, -3379, -2961]]),
    ({"start_pts": 0.15, "end_pts": 0.35, "pts_unit": "sec"}, 3, 208424, 5184, 58710,
     [[-7392, -6756, -5919], [-3697, -3379, -2961]]),
])
def test_read_video(kwargs, frames, frame_sum, points, audio_sum, first_points):
    video, audio, metadata = vision.read_video(TINY, **kwargs)
    assert video.shape == (frames, 24, 32, 3) and video.dtype == np.uint8
    assert abs(video.sum() / frame_sum - 1) < 0.02
    assert audio.shape == (2, points) and audio.dtype == np.int16
    assert int(audio.astype(np.int64).sum()) == audio_sum
    assert audio[:, :3].tolist() == first_points
    assert metadata == {"video_fps": 10.0, "audio_fps": 16000}


def test_read_video_timestamps():
    assert vision.read_video_timestamps(TINY) == ([0, 1, 2, 3, 4, 5], 10.0)
    stamps, fps = vision.read_video_timestamps(TINY, "sec")
    np.testing.assert_allclose(stamps, [0.0, 0.1, 0.2, 0.3, 0.4, 0.5], rtol=1e-6)
    assert fps == 10.0


def test_decode_video():
    video, audio = vision.DecodeVideo()(np.fromfile(TINY, np.uint8))
    assert video.shape == (6, 24, 32, 3) and audio.shape == (2, 10368)


def test_errors(tmp_path):
    with pytest.raises(TypeError, match="Input filename is not of type"):
        vision.read_video(0)
    with pytest.raises(ValueError, match="does not exist"):
        vision.read_video(str(tmp_path / "missing.avi"))
    with pytest.raises(ValueError, match="is not a regular file"):
        vision.read_video(str(tmp_path))
    with pytest.raises(ValueError, match="Not supported start_pts for -1"):
        vision.read_video(TINY, start_pts=-1)
    with pytest.raises(ValueError, match="Not supported end_pts for 1"):
        vision.read_video(TINY, start_pts=2, end_pts=1)
    with pytest.raises(ValueError, match="Not supported pts_unit for min"):
        vision.read_video(TINY, pts_unit="min")
    text = tmp_path / "not_a_video.cfg"
    text.write_text("key = value\n")
    with pytest.raises(RuntimeError, match="Failed to open the file"):
        vision.read_video(str(text))
    with pytest.raises(RuntimeError, match="Not supported pts_unit"):
        vision.read_video_timestamps(TINY, "min")
    with pytest.raises(TypeError, match="Input should be ndarray"):
        vision.DecodeVideo()("video")
    with pytest.raises(RuntimeError, match="only support 1D input, got rank: 2"):
        vision.DecodeVideo()(np.zeros((10, 10), np.uint8))
    with pytest.raises(RuntimeError, match="should be UINT8, but got float32"):
        vision.DecodeVideo()(np.zeros(10, np.float32))
    with pytest.raises(RuntimeError, match="Input Tensor has no data"):
        vision.DecodeVideo()(np.empty(0, np.uint8))
