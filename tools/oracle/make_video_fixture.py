"""Writes tests/data/video/tiny.avi: 6 frames of 32x24 MPEG-4 video at 10 fps (a moving bar)
and 0.6 s of a 440 Hz tone as MP2 audio (16 kHz, stereo), encoded by PyAV, for the video reader
tests (whose expected values are MindSpore's read of this file)."""
import os
import sys
from fractions import Fraction

import av
import numpy as np

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "video", "tiny.avi")


def main(path=OUT):
    with av.open(path, "w") as container:
        video = container.add_stream("mpeg4", rate=10)
        video.width, video.height, video.pix_fmt = 32, 24, "yuv420p"
        audio = container.add_stream("mp2", rate=16000, layout="stereo")
        for i in range(6):
            image = np.zeros((24, 32, 3), np.uint8)
            image[:, 4 * i:4 * i + 8] = (200, 60 + 20 * i, 30)
            frame = av.VideoFrame.from_ndarray(image, format="rgb24")
            frame.pts = i
            frame.time_base = Fraction(1, 10)
            container.mux(video.encode(frame))
        t = np.arange(9600) / 16000.0
        tone = (np.sin(2 * np.pi * 440 * t) * 8000).astype(np.int16)
        samples = np.stack([tone, tone // 2]).T.reshape(1, -1)
        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(samples), format="s16",
                                           layout="stereo")
        frame.sample_rate = 16000
        frame.pts = 0
        container.mux(audio.encode(frame))
        container.mux(video.encode())
        container.mux(audio.encode())


if __name__ == "__main__":
    main(*sys.argv[1:])
