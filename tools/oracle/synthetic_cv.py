"""Synthetic stand-ins for what the docs' computer-vision tutorials download: image datasets in
the real archives' folder layout (JPEG files a class to a folder, as ImageFolderDataset reads
them) and pretrained checkpoints as random weights of the tutorial network's parameter names
and shapes, in MindSpore's `.ckpt` format.

program_harness.py runs under MindSpore's interpreter and under cellgraph's, so nothing here
imports either: the checkpoint's protobuf is written by hand (MindSpore's checkpoint.proto:
`Checkpoint { repeated Value value = 1 }`, `Value { string tag = 1; TensorProto tensor = 2 }`,
`TensorProto { repeated int64 dims = 1; string tensor_type = 2; bytes tensor_content = 3 }`),
and the images are encoded by Pillow, which both interpreters hold in the same build, so both
sides read the same bytes. Each generator takes the harness's seeded RandomState and returns
{relative path: bytes} (an archive's contents) or bytes (a single downloaded file).

Sizes are small, so that the pages run on a CPU within the runner's timeout: a few images a
class, each a little larger than the crops the pages take only where the page crops.
"""
from __future__ import annotations

import io

import numpy as np

# ------------------------------------------------------------------ images


def _jpeg(pixels: np.ndarray) -> bytes:
    from PIL import Image  # both interpreters' Pillow; imported when a page asks for images

    buffer = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


def _image(rng: np.random.RandomState, label: int, classes: int) -> np.ndarray:
    """An RGB image of a random size whose mean colour depends on its class (so that training
    on it can learn), with noise on top."""
    height, width = rng.randint(48, 97, 2)
    tint = np.array([255 * label // max(classes - 1, 1), 128, 255 - 255 * label // max(
        classes - 1, 1)], np.int16)
    noise = rng.randint(-60, 61, (height, width, 3)).astype(np.int16)
    return np.clip(tint + noise, 0, 255).astype(np.uint8)


def image_folders(rng: np.random.RandomState, root: str, classes: list[str], per_class: int,
                  stem: str = "image") -> dict:
    """`root/CLASS/STEM_K.JPEG`, per_class images for each class folder."""
    files = {}
    for label, name in enumerate(classes):
        for k in range(per_class):
            files[f"{root}/{name}/{stem}_{k:04d}.JPEG"] = _jpeg(_image(rng, label, len(classes)))
    return files


def canidae_files(rng: np.random.RandomState) -> dict:
    """Canidae_data.zip (transfer_learning.md): data/Canidae/{train,val}/{dogs,wolves}; one
    training batch of 18 and four validation images a class."""
    classes = ["dogs", "wolves"]
    return {**image_folders(rng, "data/Canidae/train", classes, 9),
            **image_folders(rng, "data/Canidae/val", classes, 4)}


# a few ImageNet classes by WordNet id, as the ViT page's ImageNet subset names its folders
IMAGENET_WNIDS = ["n01440764", "n01443537", "n01484850", "n01491361"]


def vit_imagenet_files(rng: np.random.RandomState) -> dict:
    """vit_imagenet_dataset.zip (vit.md): dataset/{train,val}/WNID/*.JPEG, one batch of 16 in
    each (the page drops incomplete batches), and dataset/infer/n01440764/ holding the image
    the page draws its prediction on."""
    files = {**image_folders(rng, "dataset/train", IMAGENET_WNIDS, 4),
             **image_folders(rng, "dataset/val", IMAGENET_WNIDS, 4)}
    files["dataset/infer/n01440764/ILSVRC2012_test_00000279.JPEG"] = _jpeg(_image(rng, 0, 1))
    return files


# ------------------------------------------------------------------ checkpoints


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        low, value = value & 0x7F, value >> 7
        out.append(low | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def checkpoint_bytes(params: list[tuple[str, np.ndarray]]) -> bytes:
    """A MindSpore .ckpt holding float32 tensors: one Checkpoint message per entry, as
    MindSpore writes them, one after the other."""
    out = []
    for name, value in params:
        value = np.ascontiguousarray(value, np.float32)
        tensor = b"".join(_varint(1 << 3) + _varint(int(d)) for d in value.shape)
        tensor += _field(2, b"Float32") + _field(3, value.tobytes())
        out.append(_field(1, _field(1, name.encode()) + _field(2, tensor)))
    return b"".join(out)


def random_weights(rng: np.random.RandomState, shapes: list[tuple[str, tuple]]) -> list:
    """Values of a trained network's kind for each (name, shape): normalisation scales and
    running variances 1, shifts, biases and running means 0, embeddings N(0, 0.02), weights
    N(0, 2 / fan_in) (He), so that a forward pass neither vanishes nor overflows."""
    params = []
    for name, shape in shapes:
        leaf = name.rsplit(".", 1)[-1]
        if leaf in ("gamma", "moving_variance"):
            value = np.ones(shape, np.float32)
        elif leaf in ("beta", "bias", "moving_mean"):
            value = np.zeros(shape, np.float32)
        else:
            fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else 0
            scale = np.sqrt(2.0 / fan_in) if leaf == "weight" and fan_in else 0.02
            value = (rng.standard_normal(shape) * scale).astype(np.float32)
        params.append((name, value))
    return params


def _norm(prefix: str, channels: int) -> list:
    return [(f"{prefix}.{leaf}", (channels,))
            for leaf in ("moving_mean", "moving_variance", "gamma", "beta")]


def resnet50_shapes(num_classes: int = 1000) -> list:
    """The parameters of transfer_learning.md's ResNet-50 (bottleneck blocks conv1-3/norm1-3,
    a down_sample Conv2d+BatchNorm2d where a stage changes the shape), in the network's order."""
    shapes = [("conv1.weight", (64, 3, 7, 7)), *_norm("norm", 64)]
    in_channels = 64
    for stage, (channels, blocks) in enumerate(((64, 3), (128, 4), (256, 6), (512, 3)), 1):
        for k in range(blocks):
            block = f"layer{stage}.{k}"
            shapes += [(f"{block}.conv1.weight", (channels, in_channels, 1, 1)),
                       *_norm(f"{block}.norm1", channels),
                       (f"{block}.conv2.weight", (channels, channels, 3, 3)),
                       *_norm(f"{block}.norm2", channels),
                       (f"{block}.conv3.weight", (channels * 4, channels, 1, 1)),
                       *_norm(f"{block}.norm3", channels * 4)]
            if k == 0:
                shapes += [(f"{block}.down_sample.0.weight",
                            (channels * 4, in_channels, 1, 1)),
                           *_norm(f"{block}.down_sample.1", channels * 4)]
            in_channels = channels * 4
    return shapes + [("fc.weight", (num_classes, 2048)), ("fc.bias", (num_classes,))]


def vit_b16_shapes(num_classes: int = 1000, layers: int = 12, dim: int = 768,
                   mlp_dim: int = 3072, patch: int = 16, image: int = 224) -> list:
    """The parameters of vit.md's ViT-B/16, in the network's order."""
    shapes = [("cls", (1, 1, dim)), ("pos_embedding", (1, (image // patch) ** 2 + 1, dim)),
              ("patch_embedding.conv.weight", (dim, 3, patch, patch)),
              ("patch_embedding.conv.bias", (dim,)),
              ("norm.gamma", (dim,)), ("norm.beta", (dim,))]
    for k in range(layers):
        attention, feedforward = f"transformer.layers.{k}.0.cell", f"transformer.layers.{k}.1.cell"
        shapes += [(f"{attention}.0.gamma", (dim,)), (f"{attention}.0.beta", (dim,)),
                   (f"{attention}.1.qkv.weight", (3 * dim, dim)),
                   (f"{attention}.1.qkv.bias", (3 * dim,)),
                   (f"{attention}.1.out.weight", (dim, dim)), (f"{attention}.1.out.bias", (dim,)),
                   (f"{feedforward}.0.gamma", (dim,)), (f"{feedforward}.0.beta", (dim,)),
                   (f"{feedforward}.1.dense1.weight", (mlp_dim, dim)),
                   (f"{feedforward}.1.dense1.bias", (mlp_dim,)),
                   (f"{feedforward}.1.dense2.weight", (dim, mlp_dim)),
                   (f"{feedforward}.1.dense2.bias", (dim,))]
    return shapes + [("dense.weight", (num_classes, dim)), ("dense.bias", (num_classes,))]


def resnet50_checkpoint(rng: np.random.RandomState) -> bytes:
    """resnet50_224_new.ckpt (transfer_learning.md): ImageNet's 1000-class ResNet-50."""
    return checkpoint_bytes(random_weights(rng, resnet50_shapes()))


def vit_b16_checkpoint(rng: np.random.RandomState) -> bytes:
    """vit_b_16_224.ckpt (vit.md): ImageNet's 1000-class ViT-B/16."""
    return checkpoint_bytes(random_weights(rng, vit_b16_shapes()))


# archive or file name in the URL -> its generator
SYNTHETIC_CV = {
    "Canidae_data.zip": canidae_files,
    "resnet50_224_new.ckpt": resnet50_checkpoint,
    "vit_imagenet_dataset.zip": vit_imagenet_files,
    "vit_b_16_224.ckpt": vit_b16_checkpoint,
}
