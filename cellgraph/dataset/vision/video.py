"""Video decoding (mindspore.dataset.vision.read_video, read_video_timestamps, DecodeVideo)
through PyAV (the `video` extra, which bundles FFmpeg).

The frames and audio points kept follow MindSpore's FFmpeg reader: a frame's timestamp is its
best-effort pts (or its number times the frame duration in time-base units when it has none;
with a duration of one unit, the first frame's is at most 1); frames are kept whose timestamp
lies in [start_pts, end_pts]; the audio is cut to the kept frames' share of the points (points
per frame = all points / all frames). Frames come as RGB <T, H, W, 3> uint8, the audio as
<channels, points> of the stream's sample type.
"""
from __future__ import annotations

import os
from fractions import Fraction

import numpy as np

from cellgraph.dataset.transforms.transforms import TensorOperation

__all__ = ["DecodeVideo", "read_video", "read_video_timestamps"]

_SAMPLE_TYPES = {"dbl": np.float64, "flt": np.float32, "s16": np.int16, "s32": np.int32,
                 "s64": np.int64, "u8": np.uint8}


def _av():
    try:
        import av
    except ImportError:
        raise ImportError("reading videos needs PyAV: pip install 'cellgraph[video]' (or pip "
                          "install av)") from None
    return av


def _open(source, name: str):
    av = _av()
    try:
        return av.open(source, metadata_errors="ignore")
    except (av.FFmpegError, OSError, ValueError):
        raise RuntimeError(f"Failed to open the file {name}." if isinstance(source, str) else
                           "Failed to open the input.") from None


def _c_round(value) -> int:
    """C's round of a non-negative number: halves up."""
    return int(np.floor(np.float64(value) + 0.5))


def _check_file(filename: str, error=RuntimeError) -> None:
    path = os.path.realpath(filename)
    if not os.path.exists(path):
        raise error(f"Invalid file path, {filename} does not exist.")
    if not os.path.isfile(path):
        raise error(f"Invalid file path, {filename} is not a regular file.")


class _Pts:
    """MindSpore's timestamp of each decoded video frame (its GetVisualCurrentPts)."""

    def __init__(self, increment: int):
        self.increment = increment

    def __call__(self, frame, number: int) -> int:
        pts = frame.pts
        if pts is None:
            return number * self.increment
        if self.increment == 1 and number == 0:
            return min(pts, 1)
        return pts


def _increment(stream) -> int:
    """The frame duration in time-base units: (tb.den * rate.den) // (tb.num * rate.num)."""
    base, rate = stream.time_base, _rate(stream)
    return (base.denominator * rate.denominator) // (base.numerator * rate.numerator)


def _rate(stream) -> Fraction:
    rate = stream.average_rate
    if rate is None or rate.denominator <= 0 or rate.numerator == 0:
        return Fraction(stream.time_base.denominator, stream.time_base.numerator)
    return Fraction(rate)


def _audio_type(stream):
    name = stream.codec_context.format.name if stream.codec_context.format else "flt"
    return _SAMPLE_TYPES.get(name.rstrip("p"), np.float32)


def _audio_points(frame, channels: int) -> np.ndarray:
    data = frame.to_ndarray()
    if not frame.format.is_planar:
        data = data.reshape(-1, channels).T
    return data


def _decode(container, start_pts: float, end_pts: float, pts_unit: str):
    """(frames, audio, video stream, audio stream) as MindSpore's reader keeps them."""
    video = container.streams.video[0] if container.streams.video else None
    audio = container.streams.audio[0] if container.streams.audio else None
    if video is None and audio is None:
        raise RuntimeError("Neither audio nor visual is found.")
    start = end = 0
    if video is not None:
        if pts_unit == "pts":
            start, end = _c_round(np.float32(start_pts)), _c_round(np.float32(end_pts))
        else:
            base = np.float32(float(video.time_base))
            if base < 1.0e-9:
                raise RuntimeError(f"The time_base is too small. It is {base:.6f}")
            start = _c_round(np.float32(start_pts) / base)
            end = _c_round(np.float32(end_pts) / base)
        pts_of = _Pts(_increment(video))
    kept, number, first = {}, 0, 0
    points, channels, audio_failed = [], 0, False
    if audio is not None:
        channels = audio.codec_context.channels if hasattr(audio.codec_context, "channels") \
            else audio.codec_context.layout.nb_channels
    streams = [s for s in (video, audio) if s is not None]
    for packet in container.demux(*streams):
        if packet.stream is audio:
            if audio_failed:
                continue
            try:
                points.extend(_audio_points(f, channels) for f in packet.decode())
            except _av().FFmpegError:
                audio_failed = True  # MindSpore warns and keeps the points read so far
            continue
        for frame in packet.decode():
            pts = pts_of(frame, number)
            if pts == 1 and number == 0 and start == 1:
                start = 0
            if start <= pts <= end:
                if start > 0 and first == 0:
                    first = number
                kept[number] = frame.to_ndarray(format="rgb24")
            number += 1
    if video is not None:
        height, width = video.codec_context.height, video.codec_context.width
        frames = np.stack([kept[k] for k in sorted(kept)]) if kept else \
            np.zeros((0, height, width, 3), np.uint8)
    else:
        frames = np.zeros((0, 1, 1, 3), np.uint8)
    if not points:
        return frames, np.zeros((1, 0), np.float32), video, audio
    sound = np.concatenate(points, axis=1).astype(_audio_type(audio), copy=False)
    if video is not None and number >= 1 and sound.shape[1] >= 1:
        per_frame = np.float32(sound.shape[1]) / np.float32(number)
        lo = _c_round(np.float32(first) * per_frame)
        hi = lo + _c_round(np.float32(len(kept)) * per_frame)
        if not (lo < 1 and hi >= sound.shape[1]):
            sound = sound[:, lo:hi]
    return frames, sound, video, audio


def read_video(filename, start_pts=0, end_pts=None, pts_unit="pts"):
    """(frames <T, H, W, 3> uint8, audio <channels, points>, {"video_fps", "audio_fps"}) of the
    video file, the frames whose timestamps (in `pts_unit`: "pts" or "sec") lie in
    [start_pts, end_pts]."""
    if not isinstance(filename, str):
        raise TypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")
    if not isinstance(start_pts, (float, Fraction, int)):
        raise TypeError(f"Input start_pts is not of type [{float}, {Fraction}, {int}], but got: "
                        f"{type(start_pts)}")
    if start_pts < 0.0:
        raise ValueError(f"Not supported start_pts for {start_pts}. The start_pts should be "
                         f">= 0.")
    if end_pts is None:
        end_pts = 2147483647.0
    if not isinstance(end_pts, (float, Fraction, int)):
        raise TypeError(f"Input end_pts is not of type [{float}, {Fraction}, {int}], but got: "
                        f"{type(end_pts)}")
    if end_pts < start_pts:
        raise ValueError(f"Not supported end_pts for {end_pts}. start_pts = {start_pts}. The "
                         f"end_pts should be >= start_pts.")
    if not isinstance(pts_unit, str):
        raise TypeError(f"Input pts_unit is not of type {str}, but got: {type(pts_unit)}.")
    if pts_unit not in ("pts", "sec"):
        raise ValueError("Not supported pts_unit for " + pts_unit)
    _check_file(filename, ValueError)
    with _open(filename, filename) as container:
        frames, sound, video, audio = _decode(container, float(start_pts), float(end_pts),
                                              pts_unit)
        metadata = {}
        if video is not None:
            metadata["video_fps"] = float(f"{float(np.float32(float(_rate(video)))):f}")
        if audio is not None:
            metadata["audio_fps"] = int(audio.codec_context.sample_rate)
    return frames, sound, metadata


def read_video_timestamps(filename, pts_unit="pts"):
    """(the timestamps of the video's frames, its frame rate); in "sec" the timestamps are
    seconds. A file without video gives ([], None)."""
    if not isinstance(filename, str):
        raise TypeError(f"Input filename is not of type {str}, but got: {type(filename)}.")
    if not isinstance(pts_unit, str):
        raise TypeError(f"Input pts_unit is not of type {str}, but got: {type(pts_unit)}.")
    if pts_unit not in ("pts", "sec"):
        raise RuntimeError(f"ReadVideoTimestamps: Not supported pts_unit for {pts_unit}")
    _check_file(filename)
    with _open(filename, filename) as container:
        if not container.streams.video:
            return [], None
        video = container.streams.video[0]
        base = float(np.float32(float(video.time_base)))
        fps = float(np.float32(float(_rate(video))))
        increment = _increment(video)
        stamps = []
        extradata = video.codec_context.extradata or b""
        if b"Lavc" in extradata:  # MindSpore reads these files' timestamps off the packets
            for packet in container.demux(video):
                if packet.size == 0:
                    continue
                if packet.pts is None:
                    raise RuntimeError(f"Failed to skip frame because there is no pts value "
                                       f"for packet {len(stamps)}")
                stamps.append(int(packet.pts))
        else:
            pts_of = _Pts(increment)
            for packet in container.demux(video):
                for frame in packet.decode():
                    if packet.size == 0:  # the decoder's flush: the last pts + one frame
                        last = stamps[-1] if stamps else 0
                        stamps.append(frame.pts if frame.pts is not None else
                                      last + increment)
                    else:
                        stamps.append(pts_of(frame, len(stamps)))
    if not stamps:
        return stamps, None
    if pts_unit == "pts":
        return stamps, fps
    return [x * base for x in stamps], fps


class DecodeVideo(TensorOperation):
    """The encoded bytes of a video (a 1-D uint8 array) -> (frames <T, H, W, 3> uint8, audio
    <channels, points>)."""

    def __init__(self):
        pass

    def __call__(self, video):
        if isinstance(video, bytes):
            video = np.frombuffer(video, np.uint8)
        if not isinstance(video, np.ndarray):
            raise TypeError(f"Input should be ndarray, got {type(video)}.")
        if video.ndim != 1:
            raise RuntimeError(f"DecodeVideo: invalid input shape, only support 1D input, got "
                               f"rank: {video.ndim}")
        if video.size == 0:
            raise RuntimeError("DecodeVideo: Input Tensor has no data.")
        if video.dtype != np.uint8:
            raise RuntimeError(f"DecodeVideo: The type of the elements of input data should be "
                               f"UINT8, but got {video.dtype}.")
        import io

        with _open(io.BytesIO(video.tobytes()), "") as container:
            frames, sound, _, _ = _decode(container, 0.0, 2147483647.0, "pts")
        return frames, sound
